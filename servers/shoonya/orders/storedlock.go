package orders

import (
	"context"
	"database/sql"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// storedLeaseMigrations are the lease table's steps, append-only (store.Migrate).
var storedLeaseMigrations = []string{
	`CREATE TABLE shoonya_order_lease (key TEXT PRIMARY KEY, token TEXT NOT NULL, expires_ms INTEGER NOT NULL)`,
}

// NewStoredPlacer is NewPlacer whose per-key lock also holds across the
// processes sharing the state file db (a stdio server per client session):
// two of them given the same idempotency key at the same moment cannot both
// find the book empty and both send. A nil db gives the in-process placer.
// When the file cannot be written, nothing is sent (fail closed).
func NewStoredPlacer(ctx context.Context, db *store.DB) (*Placer, error) {
	p := NewPlacer()
	if db == nil {
		return p, nil
	}
	if err := db.Migrate(ctx, "shoonya_order_lease", storedLeaseMigrations...); err != nil {
		return nil, err
	}
	p.leases = storedLeases{db}
	return p, nil
}

type storedLeases struct{ db *store.DB }

// acquire runs in one write transaction, so the check for a live holder and
// the claim cannot interleave with another process's.
func (s storedLeases) acquire(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	now := time.Now()
	var ok bool
	err := s.db.Update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM shoonya_order_lease WHERE key = ? AND expires_ms <= ?`, key, now.UnixMilli()); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO shoonya_order_lease (key, token, expires_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			key, token, now.Add(ttl).UnixMilli())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

func (s storedLeases) renew(ctx context.Context, key, token string, ttl time.Duration) error {
	return s.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE shoonya_order_lease SET expires_ms = ? WHERE key = ? AND token = ?`, time.Now().Add(ttl).UnixMilli(), key, token)
		return err
	})
}

func (s storedLeases) release(ctx context.Context, key, token string) error {
	return s.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM shoonya_order_lease WHERE key = ? AND token = ?`, key, token)
		return err
	})
}

func (storedLeases) where() string { return "the order lock in the state file" }
