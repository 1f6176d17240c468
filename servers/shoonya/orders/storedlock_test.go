package orders

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// TestStoredPlacerAcrossProcesses: two processes' placers on one state file
// (two connections to it, as two stdio servers have) share each key; a
// closed file sends nothing.
func TestStoredPlacerAcrossProcesses(t *testing.T) {
	open := stateFile(t)
	dbA, dbB := open(), open()
	place := func(db *store.DB) *Placer {
		p, err := NewStoredPlacer(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := place(dbA), place(dbB)
	placersShareKeys(t, a, b,
		func(key string) error {
			return dbA.Update(context.Background(), func(tx *sql.Tx) error {
				_, err := tx.Exec(`INSERT INTO shoonya_order_lease (key, token, expires_ms) VALUES (?, 'dead-process', ?)`,
					key, time.Now().Add(leaseTTL).UnixMilli())
				return err
			})
		},
		func() { _ = dbB.Close() })
	if p, err := NewStoredPlacer(context.Background(), nil); err != nil || p.leases != nil {
		t.Fatalf("no state file: the placer must stay in this process (%v)", err)
	}
}
