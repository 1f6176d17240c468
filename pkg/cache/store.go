package cache

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	embedded "github.com/mcpfleet/mcpfleet/pkg/store"
)

// WithStore keeps values JSON-encoded in the embedded store (one SQLite file
// per server, see pkg/store) under prefix + key, so every process of the
// server on this host, and the next process after a restart, finds them.
// V must round-trip through encoding/json, as with WithRedis.
func WithStore(db *embedded.DB, prefix string) Option {
	if db == nil {
		panic("cache: WithStore(nil, ...)")
	}
	return func(o *options) { o.db, o.prefix = db, prefix }
}

// storeMigrations are the package's tables, append-only (see embedded.Migrate).
var storeMigrations = []string{
	`CREATE TABLE cache (key TEXT PRIMARY KEY, value BLOB NOT NULL, fetched_at INTEGER NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE INDEX cache_expires ON cache (expires)`,
}

// PrepareStore creates or upgrades the package's tables in db. Caches call
// it on first use; calling it at start-up surfaces a schema error there.
func PrepareStore(ctx context.Context, db *embedded.DB) error {
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	if prepared.done[db] {
		return nil
	}
	if err := db.Migrate(ctx, "cache", storeMigrations...); err != nil {
		return err
	}
	prepared.done[db] = true
	return nil
}

var prepared = struct {
	mu   sync.Mutex
	done map[*embedded.DB]bool
}{done: map[*embedded.DB]bool{}}

// storeStore keeps entries as rows; a row older than keep is dead. Rows are
// swept once per keep (at least a minute), and then the prefix is trimmed to
// maxEntries, oldest fetch first.
type storeStore[V any] struct {
	db         *embedded.DB
	prefix     string
	keep       time.Duration
	maxEntries int
	sweep      *embedded.Sweeper
}

func newStoreStore[V any](db *embedded.DB, prefix string, keep time.Duration, maxEntries int) *storeStore[V] {
	return &storeStore[V]{db: db, prefix: prefix, keep: keep, maxEntries: maxEntries, sweep: embedded.NewSweeper(max(keep, time.Minute))}
}

func (s *storeStore[V]) get(ctx context.Context, key string, now time.Time) (entry[V], bool, error) {
	if err := PrepareStore(ctx, s.db); err != nil {
		return entry[V]{}, false, fmt.Errorf("cache: %w", err)
	}
	var b []byte
	var at int64
	err := s.db.SQL().QueryRowContext(ctx, `SELECT value, fetched_at FROM cache WHERE key = ?`, s.prefix+key).Scan(&b, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return entry[V]{}, false, nil
	}
	if err != nil {
		return entry[V]{}, false, fmt.Errorf("cache: store get: %w", err)
	}
	e := entry[V]{FetchedAt: time.Unix(0, at)}
	if now.Sub(e.FetchedAt) >= s.keep {
		return entry[V]{}, false, nil
	}
	if err := json.Unmarshal(b, &e.Value); err != nil {
		return entry[V]{}, false, fmt.Errorf("cache: decoding %s%s: %w", s.prefix, key, err)
	}
	return e, true, nil
}

func (s *storeStore[V]) set(ctx context.Context, key string, e entry[V], now time.Time) error {
	if err := PrepareStore(ctx, s.db); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	b, err := json.Marshal(e.Value)
	if err != nil {
		return fmt.Errorf("cache: encoding value: %w", err)
	}
	err = s.db.Update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO cache (key, value, fetched_at, expires) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at, expires = excluded.expires`,
			s.prefix+key, b, e.FetchedAt.UnixNano(), e.FetchedAt.Add(s.keep).UnixNano()); err != nil {
			return err
		}
		if !s.sweep.Due(now) {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cache WHERE expires <= ?`, now.UnixNano()); err != nil {
			return err
		}
		if s.maxEntries <= 0 {
			return nil
		}
		// Keys of this prefix only: prefix .. prefix+U+10FFFF bounds them in the index.
		_, err := tx.ExecContext(ctx, `DELETE FROM cache WHERE key IN (
			SELECT key FROM cache WHERE key >= ?1 AND key < ?1 || char(1114111)
			ORDER BY fetched_at DESC LIMIT -1 OFFSET ?2)`, s.prefix, s.maxEntries)
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: store set: %w", err)
	}
	return nil
}

func (s *storeStore[V]) del(ctx context.Context, key string) error {
	if err := PrepareStore(ctx, s.db); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	err := s.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM cache WHERE key = ?`, s.prefix+key)
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: store del: %w", err)
	}
	return nil
}
