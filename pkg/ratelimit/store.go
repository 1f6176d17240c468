package ratelimit

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// WithStore keeps the state in the embedded store (one SQLite file per
// server, see pkg/store) under keys that start with prefix, so every process
// of the server on this host shares one limit. Each decision is one write
// transaction: the key's state is read, checked, and recorded only if
// admitted, with the file's write lock held throughout, so two processes can
// never both take the last slot.
func WithStore(db *store.DB, prefix string) Option {
	if db == nil {
		panic("ratelimit: WithStore(nil, ...)")
	}
	return func(o *options) { o.db, o.prefix = db, prefix }
}

// storeMigrations are the package's tables, append-only (see store.Migrate).
var storeMigrations = []string{
	`CREATE TABLE ratelimit (key TEXT PRIMARY KEY, state BLOB NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE INDEX ratelimit_expires ON ratelimit (expires)`,
	`CREATE TABLE ratelimit_claims (key TEXT PRIMARY KEY, win INTEGER NOT NULL, token TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE INDEX ratelimit_claims_expires ON ratelimit_claims (expires)`,
}

// PrepareStore creates or upgrades the package's tables in db. Limiters
// call it on first use; calling it at start-up surfaces a schema error there.
func PrepareStore(ctx context.Context, db *store.DB) error {
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	if prepared.done[db] {
		return nil
	}
	if err := db.Migrate(ctx, "ratelimit", storeMigrations...); err != nil {
		return err
	}
	prepared.done[db] = true
	return nil
}

var prepared = struct {
	mu   sync.Mutex
	done map[*store.DB]bool
}{done: map[*store.DB]bool{}}

// sweeps of expired rows: at most once a minute per process and file.
var storeSweeps sync.Map // *store.DB → *store.Sweeper

func sweepDue(db *store.DB, now time.Time) bool {
	s, _ := storeSweeps.LoadOrStore(db, store.NewSweeper(time.Minute))
	return s.(*store.Sweeper).Due(now)
}

// encodeState writes tat then the log, oldest first, as big-endian int64s.
func encodeState(s *memState) []byte {
	b := make([]byte, 8+8*s.n)
	binary.BigEndian.PutUint64(b, uint64(s.tat))
	for i := 0; i < s.n; i++ {
		binary.BigEndian.PutUint64(b[8+8*i:], uint64(s.log[(s.head+i)%len(s.log)]))
	}
	return b
}

func decodeState(b []byte) (*memState, error) {
	s := &memState{}
	if len(b) == 0 {
		return s, nil
	}
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("ratelimit: stored state of %d bytes is not a list of int64", len(b))
	}
	s.tat = int64(binary.BigEndian.Uint64(b))
	if n := len(b)/8 - 1; n > 0 {
		s.log, s.n = make([]int64, n), n
		for i := range n {
			s.log[i] = int64(binary.BigEndian.Uint64(b[8+8*i:]))
		}
	}
	return s, nil
}

// allowStoreVerdicts decides key for parts (all on o.db) in one write
// transaction. Time is the wall clock in Unix ns, read after the write lock
// is taken, so every process on the host reads one clock in commit order;
// should the clock step back, now is held at the newest recorded admission
// so that the logs stay in order.
func allowStoreVerdicts(ctx context.Context, o options, parts []*limiter, key string) ([]verdict, error) {
	if err := PrepareStore(ctx, o.db); err != nil {
		return nil, err
	}
	vs := make([]verdict, len(parts))
	err := o.db.Update(ctx, func(tx *sql.Tx) error {
		t := o.clock.Now()
		now := t.UnixNano()
		states := make([]*memState, len(parts))
		for i, p := range parts {
			var b []byte
			err := tx.QueryRowContext(ctx, `SELECT state FROM ratelimit WHERE key = ?`, p.o.prefix+key).Scan(&b)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if states[i], err = decodeState(b); err != nil {
				return err
			}
			if st := states[i]; st.n > 0 {
				now = max(now, st.log[st.n-1])
			}
		}
		all := true
		for i, p := range parts {
			vs[i] = p.pol.check(states[i], now)
			all = all && vs[i].allowed
		}
		if all {
			for i, p := range parts {
				p.pol.commit(states[i], now)
				if _, err := tx.ExecContext(ctx, `INSERT INTO ratelimit (key, state, expires) VALUES (?, ?, ?)
					ON CONFLICT (key) DO UPDATE SET state = excluded.state, expires = excluded.expires`,
					p.o.prefix+key, encodeState(states[i]), now+int64(p.pol.horizon())); err != nil {
					return err
				}
			}
		}
		if sweepDue(o.db, t) {
			_, err := tx.ExecContext(ctx, `DELETE FROM ratelimit WHERE expires <= ?`, now)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ratelimit: %w", err)
	}
	return vs, nil
}

// storeClaims keeps one row per claimed key: the window it was granted for
// and the holder's token.
type storeClaims struct {
	window time.Duration
	o      options
}

func (s *storeClaims) Claim(ctx context.Context, key string) (Claim, error) {
	if err := PrepareStore(ctx, s.o.db); err != nil {
		return Claim{}, err
	}
	var c Claim
	err := s.o.db.Update(ctx, func(tx *sql.Tx) error {
		now := s.o.clock.Now()
		w, next := WindowOf(now, s.window)
		c = Claim{Key: key, Window: w, Next: next}
		var cw int64
		err := tx.QueryRowContext(ctx, `SELECT win FROM ratelimit_claims WHERE key = ?`, s.o.prefix+key).Scan(&cw)
		switch {
		case err == nil && cw >= w:
			c.RetryAfter = next.Sub(now)
			return nil
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return err
		}
		token := claimToken()
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratelimit_claims (key, win, token, expires) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET win = excluded.win, token = excluded.token, expires = excluded.expires`,
			s.o.prefix+key, w, token, next.Add(s.window).UnixNano()); err != nil {
			return err
		}
		c.Granted, c.token = true, token
		if sweepDue(s.o.db, now) {
			_, err := tx.ExecContext(ctx, `DELETE FROM ratelimit_claims WHERE expires <= ?`, now.UnixNano())
			return err
		}
		return nil
	})
	if err != nil {
		return Claim{}, fmt.Errorf("ratelimit: %w", err)
	}
	return c, nil
}

func (s *storeClaims) Release(ctx context.Context, c Claim) error {
	if !c.Granted {
		return nil
	}
	err := s.o.db.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM ratelimit_claims WHERE key = ? AND win = ? AND token = ?`, s.o.prefix+c.Key, c.Window, c.token)
		return err
	})
	if err != nil {
		return fmt.Errorf("ratelimit: %w", err)
	}
	return nil
}

// StoredAdmissions reads, without counting anything, the admissions of a
// store-backed sliding window l for key that still count now (oldest
// first), and now as the store's clock reads it. It is for "how many are
// left, and when does the next slot free up" answers; l must come from
// NewSlidingWindow with WithStore.
func StoredAdmissions(ctx context.Context, l Limiter, key string) ([]time.Time, time.Time, error) {
	sl, ok := l.(*limiter)
	if !ok || sl.o.db == nil {
		return nil, time.Time{}, fmt.Errorf("ratelimit: StoredAdmissions needs a limiter made WithStore")
	}
	pol, ok := sl.pol.(slidingPolicy)
	if !ok {
		return nil, time.Time{}, fmt.Errorf("ratelimit: StoredAdmissions needs a sliding window")
	}
	if err := PrepareStore(ctx, sl.o.db); err != nil {
		return nil, time.Time{}, err
	}
	now := sl.o.clock.Now()
	var b []byte
	err := sl.o.db.SQL().QueryRowContext(ctx, `SELECT state FROM ratelimit WHERE key = ?`, sl.o.prefix+key).Scan(&b)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, now, fmt.Errorf("ratelimit: %w", err)
	}
	st, err := decodeState(b)
	if err != nil {
		return nil, now, err
	}
	var out []time.Time
	for i := 0; i < st.n; i++ {
		if t := st.log[i]; t+int64(pol.window) > now.UnixNano() {
			out = append(out, time.Unix(0, t))
		}
	}
	return out, now, nil
}
