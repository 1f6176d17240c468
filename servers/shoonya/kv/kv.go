// Package kv is the small shared state the order guards, the confirmation
// tickets and the paper book live in: one JSON value per key, changed by an
// atomic read-modify-write. It lives where the server's other shared state
// lives: Redis (MCPFLEET_REDIS_URL) for replicas, the state file for the
// processes of one host, or this process's memory when neither is there
// (MCPFLEET_STATE=memory), so replicas and restarts see the same counters.
package kv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// State is an atomic key-value store of small values.
type State interface {
	// Update replaces the value under key with what fn returns for the
	// current one (nil when absent) in one atomic step across every process
	// sharing the state. fn returning nil deletes the key; fn's error aborts
	// without a change and is returned. ttl > 0 lets the key expire.
	Update(ctx context.Context, key string, ttl time.Duration, fn func(cur []byte) ([]byte, error)) error
	// Get reads the value under key (nil when absent).
	Get(ctx context.Context, key string) ([]byte, error)
	// Where names the store for messages ("Redis", "the state file", "memory").
	Where() string
}

// For picks the store: Redis when rdb is set, else the state file db, else memory.
func For(ctx context.Context, rdb *redis.Client, db *store.DB) (State, error) {
	switch {
	case rdb != nil:
		return NewRedis(rdb), nil
	case db != nil:
		return NewStored(ctx, db)
	}
	return NewMemory(), nil
}

// Memory keeps the values in this process.
type Memory struct {
	mu   sync.Mutex
	vals map[string]memVal
	now  func() time.Time
}

type memVal struct {
	b       []byte
	expires time.Time
}

// NewMemory makes an empty in-process state.
func NewMemory() *Memory { return &Memory{vals: map[string]memVal{}, now: time.Now} }

func (m *Memory) Where() string { return "memory" }

func (m *Memory) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.live(key), nil
}

func (m *Memory) live(key string) []byte {
	v, ok := m.vals[key]
	if !ok || (!v.expires.IsZero() && !m.now().Before(v.expires)) {
		delete(m.vals, key)
		return nil
	}
	return append([]byte(nil), v.b...)
}

func (m *Memory) Update(_ context.Context, key string, ttl time.Duration, fn func([]byte) ([]byte, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	next, err := fn(m.live(key))
	if err != nil {
		return err
	}
	if next == nil {
		delete(m.vals, key)
		return nil
	}
	v := memVal{b: append([]byte(nil), next...)}
	if ttl > 0 {
		v.expires = m.now().Add(ttl)
	}
	m.vals[key] = v
	return nil
}

// storedMigrations are the table's steps, append-only (store.Migrate).
var storedMigrations = []string{
	`CREATE TABLE shoonya_kv (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_ms INTEGER NOT NULL)`,
}

// Stored keeps the values in the server's state file; every Update is one
// BEGIN IMMEDIATE transaction, so processes on one host never interleave.
type Stored struct{ db *store.DB }

// NewStored prepares the table in db.
func NewStored(ctx context.Context, db *store.DB) (*Stored, error) {
	if err := db.Migrate(ctx, "shoonya_kv", storedMigrations...); err != nil {
		return nil, err
	}
	return &Stored{db: db}, nil
}

func (s *Stored) Where() string { return "the state file " + s.db.Path() }

func (s *Stored) Get(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	var exp int64
	err := s.db.SQL().QueryRowContext(ctx, `SELECT value, expires_ms FROM shoonya_kv WHERE key = ?`, key).Scan(&b, &exp)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && exp > 0 && exp <= time.Now().UnixMilli()) {
		return nil, nil
	}
	return b, err
}

func (s *Stored) Update(ctx context.Context, key string, ttl time.Duration, fn func([]byte) ([]byte, error)) error {
	return s.db.Update(ctx, func(tx *sql.Tx) error {
		now := time.Now().UnixMilli()
		var cur []byte
		var exp int64
		err := tx.QueryRowContext(ctx, `SELECT value, expires_ms FROM shoonya_kv WHERE key = ?`, key).Scan(&cur, &exp)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			cur = nil
		case err != nil:
			return err
		case exp > 0 && exp <= now:
			cur = nil
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		if next == nil {
			_, err = tx.ExecContext(ctx, `DELETE FROM shoonya_kv WHERE key = ?`, key)
			return err
		}
		var expires int64
		if ttl > 0 {
			expires = now + ttl.Milliseconds()
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO shoonya_kv (key, value, expires_ms) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_ms = excluded.expires_ms`, key, next, expires)
		return err
	})
}

// RedisPrefix starts every key this package writes in Redis.
const RedisPrefix = "mcpfleet:shoonya:kv:"

// Redis keeps the values in Redis; Update is an optimistic transaction
// (WATCH/MULTI/EXEC, https://redis.io/docs/latest/develop/interact/transactions/),
// retried when another replica changed the key in between.
type Redis struct{ rdb *redis.Client }

// NewRedis uses rdb.
func NewRedis(rdb *redis.Client) *Redis { return &Redis{rdb: rdb} }

func (r *Redis) Where() string { return "Redis (MCPFLEET_REDIS_URL)" }

func (r *Redis) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := r.rdb.Get(ctx, RedisPrefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return b, err
}

// errAbort carries fn's own error out of the transaction untouched.
type errAbort struct{ err error }

func (e errAbort) Error() string { return e.err.Error() }

func (r *Redis) Update(ctx context.Context, key string, ttl time.Duration, fn func([]byte) ([]byte, error)) error {
	k := RedisPrefix + key
	for range 50 {
		err := r.rdb.Watch(ctx, func(tx *redis.Tx) error {
			cur, err := tx.Get(ctx, k).Bytes()
			if errors.Is(err, redis.Nil) {
				cur, err = nil, nil
			}
			if err != nil {
				return err
			}
			next, err := fn(cur)
			if err != nil {
				return errAbort{err}
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				if next == nil {
					p.Del(ctx, k)
				} else {
					p.Set(ctx, k, next, ttl)
				}
				return nil
			})
			return err
		}, k)
		if errors.Is(err, redis.TxFailedErr) {
			continue // another replica wrote the key first: read it again
		}
		var a errAbort
		if errors.As(err, &a) {
			return a.err
		}
		return err
	}
	return fmt.Errorf("kv: %s changed under 50 attempts in a row", key)
}
