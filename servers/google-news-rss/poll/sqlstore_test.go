package poll

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// fileStores returns a function that opens one new state file's store again,
// as each process of a host does.
func fileStores(t *testing.T) func() *fileStore {
	path := filepath.Join(t.TempDir(), "gnr.db")
	return func() *fileStore {
		s, err := NewFileStore(context.Background(), storetest.Open(t, path))
		if err != nil {
			t.Fatal(err)
		}
		return s.(*fileStore)
	}
}

// The file store keeps specs and feeds across handles (processes) and
// drops them after their lifetimes, as the Redis store's TTLs do.
func TestFileStoreLifetimes(t *testing.T) {
	ctx := context.Background()
	open := fileStores(t)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	a := open()
	a.now = func() time.Time { return now }
	if err := a.PutSpec(ctx, "k", Spec{Q: "shipping", Edition: "US:en"}); err != nil {
		t.Fatal(err)
	}
	if err := a.PutState(ctx, "k", State{PolledWindow: 7}); err != nil {
		t.Fatal(err)
	}
	b := open()
	b.now = func() time.Time { return now.Add(8 * 24 * time.Hour) } // feed past 7 days, spec within 30
	if s, ok, err := b.Spec(ctx, "k"); err != nil || !ok || s.Q != "shipping" {
		t.Fatalf("spec in another handle: %+v %v %v", s, ok, err)
	}
	if _, ok, err := b.State(ctx, "k"); err != nil || ok {
		t.Fatalf("feed past its 7 days: %v %v", ok, err)
	}
	// Reading the spec at day 8 moved its expiry to day 38.
	b.now = func() time.Time { return now.Add(37 * 24 * time.Hour) }
	if _, ok, _ := b.Spec(ctx, "k"); !ok {
		t.Fatal("a spec used at day 8 expired before day 38")
	}
	b.now = func() time.Time { return now.Add(68 * 24 * time.Hour) }
	if _, ok, _ := b.Spec(ctx, "k"); ok {
		t.Fatal("a spec unused for 31 days is still there")
	}
}

// A throttle's hold recorded by one process holds for the others, and is
// gone a minute after it ends.
func TestFileStoreHolds(t *testing.T) {
	ctx := context.Background()
	open := fileStores(t)
	a, b := open(), open()
	until := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	if err := a.HoldUntil(ctx, "news.google.com", until); err != nil {
		t.Fatal(err)
	}
	if got, err := b.HeldUntil(ctx, "news.google.com"); err != nil || !got.Equal(until) {
		t.Fatalf("hold in another process: %v %v", got, err)
	}
	if got, _ := b.HeldUntil(ctx, "www.google.com"); !got.IsZero() {
		t.Fatalf("another host held: %v", got)
	}
	b.now = func() time.Time { return until.Add(2 * time.Minute) }
	if got, _ := b.HeldUntil(ctx, "news.google.com"); !got.IsZero() {
		t.Fatalf("hold past its end: %v", got)
	}
}
