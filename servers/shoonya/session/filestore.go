package session

import (
	"context"
	"crypto/cipher"
	"database/sql"
	"errors"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// fileMigrations are the sessions' table in the state file, append-only.
var fileMigrations = []string{
	`CREATE TABLE shoonya_sessions (key TEXT PRIMARY KEY, sealed BLOB NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
}

// FileStore is a Store in the server's state file (pkg/store): each
// process of the server on the host (a stdio server per client session)
// finds the day's broker login instead of logging in again. Records are
// sealed like RedisStore's (AES-256-GCM under MCPFLEET_STATE_KEY, the row's
// key bound in), so the file never holds a usable token; rows live a
// trading day (sessionTTL) and expired ones are swept.
type FileStore struct {
	db    *store.DB
	aead  cipher.AEAD
	TTL   time.Duration
	now   func() time.Time
	sweep *store.Sweeper
}

// NewFileStore seals records with key (32 bytes, from ParseStateKey).
func NewFileStore(ctx context.Context, db *store.DB, key []byte) (*FileStore, error) {
	if err := db.Migrate(ctx, "shoonya-sessions", fileMigrations...); err != nil {
		return nil, err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	return &FileStore{db: db, aead: aead, TTL: sessionTTL, now: time.Now, sweep: store.NewSweeper(time.Hour)}, nil
}

func (f *FileStore) Save(ctx context.Context, user string, r Record) error {
	key := redisKey(user) // a hash: user names are not readable in the file either
	sealed, err := seal(f.aead, key, r)
	if err != nil {
		return err
	}
	now := f.now()
	return f.db.Update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO shoonya_sessions (key, sealed, expires) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET sealed = excluded.sealed, expires = excluded.expires`,
			key, sealed, now.Add(f.TTL).UnixNano()); err != nil {
			return err
		}
		if f.sweep.Due(now) {
			_, err := tx.ExecContext(ctx, `DELETE FROM shoonya_sessions WHERE expires <= ?`, now.UnixNano())
			return err
		}
		return nil
	})
}

func (f *FileStore) Load(ctx context.Context, user string) (*Record, error) {
	key := redisKey(user)
	var sealed []byte
	var exp int64
	err := f.db.SQL().QueryRowContext(ctx, `SELECT sealed, expires FROM shoonya_sessions WHERE key = ?`, key).Scan(&sealed, &exp)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && exp <= f.now().UnixNano()) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return openSealed(f.aead, key, sealed)
}

func (f *FileStore) Delete(ctx context.Context, user string) error {
	return f.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM shoonya_sessions WHERE key = ?`, redisKey(user))
		return err
	})
}
