package rules

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

func openDB(t *testing.T, path string) *store.DB {
	t.Helper()
	db := storetest.Open(t, path)
	return db
}

// TestDBStoreImportsTheJSONFileOnce: the rules an older release wrote are in
// the state file after the first start, and later starts neither import
// again nor lose what was stored since.
func TestDBStoreImportsTheJSONFileOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	legacy := filepath.Join(dir, "ziwei-rules.json")
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rule := json.RawMessage(`{"stars":["紫微"],"in":"命宫"}`)
	old := NewStore(legacy)
	for _, name := range []string{"a", "b"} {
		if _, _, err := old.Put("alice", name, "m", rule, now); err != nil {
			t.Fatal(err)
		}
	}
	statePath := filepath.Join(dir, "state", "ziwei.db")
	s, err := NewDBStore(ctx, openDB(t, statePath), legacy, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	if l, err := s.List("alice"); err != nil || len(l.Rules) != 2 {
		t.Fatalf("after import: %d rules, %v", len(l.Rules), err)
	}
	if _, err := s.Delete("alice", "a"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Put("alice", "c", "m", rule, now); err != nil {
		t.Fatal(err)
	}
	// A restart (a new handle) with the JSON file still on disk.
	again, err := NewDBStore(ctx, openDB(t, statePath), legacy, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	l, err := again.List("alice")
	if err != nil || len(l.Rules) != 2 || l.Rules[0].Name != "b" || l.Rules[1].Name != "c" {
		t.Fatalf("after restart: %+v, %v", l.Rules, err)
	}
	// The JSON file is left as it was.
	if l, _ := NewStore(legacy).List("alice"); len(l.Rules) != 2 || l.Rules[0].Name != "a" {
		t.Fatalf("legacy file changed: %+v", l.Rules)
	}
}

func TestDBStoreRefusesAnUnreadableJSONFile(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "ziwei-rules.json")
	if err := os.WriteFile(legacy, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := NewDBStore(context.Background(), openDB(t, filepath.Join(dir, "ziwei.db")), legacy, zerolog.Nop())
	if err == nil || !strings.Contains(err.Error(), legacy) || !strings.Contains(err.Error(), "move it aside") {
		t.Fatalf("got %v", err)
	}
}

// TestDBStoreTwoHandlesNeverLoseAWrite: two processes' stores writing at once
// keep every rule (the write lock spans read-check-write).
func TestDBStoreTwoHandlesNeverLoseAWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ziwei.db")
	var stores []*Store
	for range 2 {
		s, err := NewDBStore(ctx, openDB(t, path), "", zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	rule := json.RawMessage(`{"stars":["紫微"]}`)
	done := make(chan error, 20)
	for i := range 20 {
		go func() {
			_, _, err := stores[i%2].Put("u", string(rune('a'+i)), "m", rule, time.Now())
			done <- err
		}()
	}
	for range 20 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range stores {
		if l, err := s.List("u"); err != nil || len(l.Rules) != 20 {
			t.Fatalf("%d rules, %v", len(l.Rules), err)
		}
	}
}
