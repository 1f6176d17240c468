package orders

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// stateFile returns a function that opens one new state file again, as each
// process of a host does.
func stateFile(t *testing.T) func() *store.DB {
	path := filepath.Join(t.TempDir(), "shoonya.db")
	return func() *store.DB {
		return storetest.Open(t, path)
	}
}

// TestStoredPacer: two processes' pacers on one state file admit the limit
// once in total; a state file that fails refuses, naming it, sending nothing.
func TestStoredPacer(t *testing.T) {
	if NewStoredPacer(nil, 2).shared != nil {
		t.Fatal("no state file: the pacer must stay in memory")
	}
	open := stateFile(t)
	dbA := open()
	e := pacersShareLimit(t, NewStoredPacer(dbA, 2), NewStoredPacer(open(), 2), func() { _ = dbA.Close() })
	if !strings.Contains(e.Message, "state file") {
		t.Fatalf("the refusal does not name the state file: %+v", e)
	}
}
