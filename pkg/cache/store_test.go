package cache

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	embedded "github.com/mcpfleet/mcpfleet/pkg/store"
)

// openStore opens path, or a fresh file in a temp dir when path is "".
func openStore(t testing.TB, path string) *embedded.DB {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "cache.db")
	}
	db, err := embedded.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestStoreSharedAcrossHandles: a value stored through one handle (one
// process) is a hit through another opened later (the next process).
func TestStoreSharedAcrossHandles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	a := New[Feed](time.Minute, WithStore(openStore(t, path), "gnr:feed:"))
	want := Feed{Query: "uae", Items: []string{"one", "two"}}
	if _, _, err := a.Get(ctx, "uae", func(context.Context) (Feed, error) { return want, nil }); err != nil {
		t.Fatal(err)
	}
	b := New[Feed](time.Minute, WithStore(openStore(t, path), "gnr:feed:"))
	got, meta, err := b.Get(ctx, "uae", func(context.Context) (Feed, error) {
		t.Error("second handle fetched although the first had stored the value")
		return Feed{}, nil
	})
	if err != nil || !meta.Hit || got.Query != "uae" || len(got.Items) != 2 || got.Items[1] != "two" {
		t.Fatalf("got %+v %+v %v", got, meta, err)
	}
}

func TestStoreSweepAndBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openStore(t, "")
	clk := clock.NewFake(t0)
	c := New[Feed](time.Minute, WithStore(db, "a:"), WithStaleFor(0), WithMaxEntries(3), WithClock(clk))
	other := New[Feed](time.Hour, WithStore(db, "b:"), WithClock(clk))
	if err := other.Set(ctx, "kept", Feed{}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := c.Set(ctx, fmt.Sprint(i), Feed{}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
	}
	count := func(prefix string) int {
		var n int
		if err := db.SQL().QueryRow(`SELECT count(*) FROM cache WHERE key LIKE ?`, prefix+"%").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	clk.Advance(2 * time.Minute) // every a: row dead; the sweep is due
	if err := c.Set(ctx, "new", Feed{}); err != nil {
		t.Fatal(err)
	}
	if n := count("a:"); n != 1 {
		t.Fatalf("%d a: rows after the sweep, want 1", n)
	}
	if n := count("b:"); n != 1 {
		t.Fatalf("another prefix lost its row: %d", n)
	}
	// The bound: a cache kept an hour, swept every 61 minutes, holds 3.
	d := New[Feed](time.Minute, WithStore(db, "d:"), WithStaleFor(time.Hour), WithMaxEntries(3), WithClock(clk))
	if err := d.Set(ctx, "first", Feed{}); err != nil { // sweeps (nothing yet)
		t.Fatal(err)
	}
	clk.Advance(30 * time.Minute)
	for i := range 5 {
		if err := d.Set(ctx, fmt.Sprint("n", i), Feed{}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
	}
	clk.Advance(31 * time.Minute) // "first" has expired, the five have not
	if err := d.Set(ctx, "last", Feed{}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	rows, err := db.SQL().Query(`SELECT key FROM cache WHERE key LIKE 'd:%' ORDER BY fetched_at`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		keys = append(keys, k)
	}
	if fmt.Sprint(keys) != "[d:n3 d:n4 d:last]" {
		t.Fatalf("rows %v, want the 3 newest", keys)
	}
}
