package orders

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// stateFile returns a function that opens one new state file again, as each
// process of a host does.
func stateFile(t *testing.T) func() *store.DB {
	path := filepath.Join(t.TempDir(), "shoonya.db")
	return func() *store.DB {
		db, err := store.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
}

// TestStoredPacer: two processes' pacers on one state file admit the limit
// once in total; a state file that fails refuses, naming it, sending nothing.
func TestStoredPacer(t *testing.T) {
	open := stateFile(t)
	dbA := open()
	a, b := NewStoredPacer(dbA, 2), NewStoredPacer(open(), 2)
	ctx := context.Background()
	if a.Take(ctx, "u") != nil || b.Take(ctx, "u") != nil || a.Take(ctx, "v") != nil {
		t.Fatal("within the shared limit")
	}
	for _, p := range []*Pacer{a, b} {
		e := envelope.From(p.Take(ctx, "u"))
		if e == nil || e.Code != envelope.PermissionDenied || e.RetryAfter <= 0 || e.RetryAfter > time.Minute {
			t.Fatalf("over the shared limit: %+v", e)
		}
	}
	if NewStoredPacer(nil, 2).shared != nil {
		t.Fatal("no state file: the pacer must stay in memory")
	}
	_ = dbA.Close()
	if e := envelope.From(a.Take(ctx, "w")); e == nil || e.Code != envelope.UpstreamUnavailable || !e.Retryable || !strings.Contains(e.Message, "state file") {
		t.Fatalf("state file gone: %+v", e)
	}
}
