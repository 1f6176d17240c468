package poll

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// fileMigrations are the tables of the file store, append-only.
var fileMigrations = []string{
	`CREATE TABLE gnr_specs (key TEXT PRIMARY KEY, spec BLOB NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE gnr_states (key TEXT PRIMARY KEY, state BLOB NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE gnr_holds (host TEXT PRIMARY KEY, until INTEGER NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
}

// NewFileStore keeps specs and feeds in the server's state file (pkg/store),
// shared by every process of the server on this host and kept across
// restarts, with Redis' lifetimes: a spec lives specTTL after its last use,
// a feed stateTTL after its last poll, a throttle's hold a minute past its end.
func NewFileStore(ctx context.Context, db *store.DB) (Store, error) {
	if err := db.Migrate(ctx, "google-news-rss", fileMigrations...); err != nil {
		return nil, err
	}
	return &fileStore{db: db, now: time.Now, sweep: store.NewSweeper(time.Hour)}, nil
}

type fileStore struct {
	db    *store.DB
	now   func() time.Time
	sweep *store.Sweeper
}

func (f *fileStore) put(ctx context.Context, table, key string, v any, ttl time.Duration) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	now := f.now()
	return fileErr(f.db.Update(ctx, func(tx *sql.Tx) error {
		// table is one of two constants, never input.
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (key, `+column(table)+`, expires) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET `+column(table)+` = excluded.`+column(table)+`, expires = excluded.expires`,
			key, b, now.Add(ttl).UnixNano()); err != nil {
			return err
		}
		if f.sweep.Due(now) {
			for _, t := range []string{"gnr_specs", "gnr_states", "gnr_holds"} {
				if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE expires <= ?`, now.UnixNano()); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

func column(table string) string {
	if table == "gnr_specs" {
		return "spec"
	}
	return "state"
}

// get reads a live row; refresh > 0 moves a spec's expiry to now+refresh
// when it has lost more than a day of it (Redis' GETEX, at most daily).
func (f *fileStore) get(ctx context.Context, table, key string, refresh time.Duration, out any) (bool, error) {
	now := f.now()
	var b []byte
	var exp int64
	err := f.db.SQL().QueryRowContext(ctx, `SELECT `+column(table)+`, expires FROM `+table+` WHERE key = ?`, key).Scan(&b, &exp)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && exp <= now.UnixNano()) {
		return false, nil
	}
	if err != nil {
		return false, fileErr(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return false, nil // a value from an incompatible version: treat as absent
	}
	if refresh > 0 && now.Add(refresh-24*time.Hour).UnixNano() > exp {
		err := f.db.Update(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE `+table+` SET expires = ? WHERE key = ?`, now.Add(refresh).UnixNano(), key)
			return err
		})
		if err != nil {
			return false, fileErr(err)
		}
	}
	return true, nil
}

func (f *fileStore) PutSpec(ctx context.Context, key string, s Spec) error {
	return f.put(ctx, "gnr_specs", key, s, specTTL)
}

func (f *fileStore) Spec(ctx context.Context, key string) (Spec, bool, error) {
	var s Spec
	ok, err := f.get(ctx, "gnr_specs", key, specTTL, &s)
	return s, ok, err
}

func (f *fileStore) PutState(ctx context.Context, key string, st State) error {
	return f.put(ctx, "gnr_states", key, st, stateTTL)
}

func (f *fileStore) State(ctx context.Context, key string) (State, bool, error) {
	var st State
	ok, err := f.get(ctx, "gnr_states", key, 0, &st)
	return st, ok, err
}

// fileErr fails closed like Redis: nothing is polled. The store's message
// names the file and the fix and holds no secret.
func fileErr(err error) error {
	if err == nil {
		return nil
	}
	return envelope.New(envelope.UpstreamUnavailable, "the state file failed, nothing was polled: %s", err.Error()).WithCause(err)
}

// HoldUntil keeps until when host is not to be asked (the latest throttle's
// hold wins), as the Redis store does; the row expires a minute after it.
func (f *fileStore) HoldUntil(ctx context.Context, host string, until time.Time) error {
	return fileErr(f.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gnr_holds (host, until, expires) VALUES (?, ?, ?)
			ON CONFLICT (host) DO UPDATE SET until = excluded.until, expires = excluded.expires`,
			host, until.UnixNano(), until.Add(time.Minute).UnixNano())
		return err
	}))
}

func (f *fileStore) HeldUntil(ctx context.Context, host string) (time.Time, error) {
	var until, exp int64
	err := f.db.SQL().QueryRowContext(ctx, `SELECT until, expires FROM gnr_holds WHERE host = ?`, host).Scan(&until, &exp)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && exp <= f.now().UnixNano()) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fileErr(err)
	}
	return time.Unix(0, until), nil
}
