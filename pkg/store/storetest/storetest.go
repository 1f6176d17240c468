// Package storetest opens state files for tests.
package storetest

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// Open opens (creating it) the state file at path for the test and closes it
// when the test ends; opening one path twice is two processes' view of it.
func Open(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
