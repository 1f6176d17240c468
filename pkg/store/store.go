package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DefaultBusyTimeout is how long a write waits for another process's
// transaction before it fails as locked. Transactions here last
// microseconds; five seconds only passes when a process holds the file
// (a stuck process, a backup tool, an `sqlite3` shell left in a transaction).
const DefaultBusyTimeout = 5 * time.Second

// DB is one open state file. It is safe for concurrent use.
type DB struct {
	path string
	db   *sql.DB
	wmu  sync.Mutex // one writer per process: SQLite's busy handler sleeps, a mutex hands over at once
}

// Option configures Open.
type Option func(*openOptions)

type openOptions struct{ busy time.Duration }

// WithBusyTimeout sets how long a write waits for another process's lock
// (default DefaultBusyTimeout).
func WithBusyTimeout(d time.Duration) Option { return func(o *openOptions) { o.busy = d } }

// Open opens (creating it and its directory when missing) the state file at
// path, checks it, and returns it ready for Migrate. Errors are *Error values
// naming the path, the problem and the fix.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	o := openOptions{busy: DefaultBusyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, &Error{Path: path, Kind: ErrUnwritable, Problem: "is not a usable file name (empty, or holds ? or #)", Fix: fixDir}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &Error{Path: path, Kind: ErrUnwritable, Problem: "its directory " + dir + " cannot be created", Fix: fixDir, Err: err}
	}
	// SQLite opens an unwritable file read-only without a word and fails on
	// the first write; find out now, with the OS's reason.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &Error{Path: path, Kind: ErrUnwritable, Problem: "the state file cannot be opened for writing", Fix: fixDir, Err: err}
	}
	_ = f.Close()
	ms := o.busy.Milliseconds()
	dsn := path + fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate", ms)
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, classify(path, "cannot be opened", err)
	}
	// A handful of readers beside the one writer; every connection runs the
	// pragmas above when it opens.
	sdb.SetMaxOpenConns(4)
	sdb.SetMaxIdleConns(4)
	sdb.SetConnMaxIdleTime(0)
	d := &DB{path: path, db: sdb}
	if err := d.setUp(ctx, o.busy); err != nil {
		_ = sdb.Close()
		return nil, err
	}
	return d, nil
}

// setUp checks the file and creates the schema table. Processes opening a
// new file together race to switch it to WAL; SQLite answers the loser
// SQLITE_BUSY at once, without its busy handler (the two would deadlock), so
// a locked answer is tried again until the busy timeout is spent.
func (d *DB) setUp(ctx context.Context, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		err := d.check(ctx)
		if err == nil {
			err = d.Update(ctx, func(tx *sql.Tx) error {
				_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS store_schema (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`)
				return err
			})
		}
		if err == nil || !errors.Is(err, ErrLocked) || time.Now().Add(pause).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// check opens a connection (running the WAL pragma, which needs the file's
// lock once) and runs SQLite's quick_check, so a corrupt file is reported at
// start-up, not on some later call.
func (d *DB) check(ctx context.Context) error {
	var mode string
	if err := d.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return classify(d.path, "cannot be read", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return &Error{Path: d.path, Kind: ErrUnwritable, Problem: "cannot use write-ahead logging (journal_mode is " + mode + ")",
			Fix: "put the state directory on a local file system (WAL needs shared memory; network file systems lack it) with MCPFLEET_STATE_DIR"}
	}
	rows, err := d.db.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return classify(d.path, "cannot be checked", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return classify(d.path, "cannot be checked", err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return classify(d.path, "cannot be checked", err)
	}
	if len(problems) > 0 {
		return &Error{Path: d.path, Kind: ErrCorrupt, Problem: "is damaged: " + strings.Join(problems[:min(len(problems), 3)], "; "), Fix: fixCorrupt}
	}
	return nil
}

// Path is the file's path.
func (d *DB) Path() string { return d.path }

// SQL is the pool for reads (WAL: they never wait for a writer). Writes go
// through Update.
func (d *DB) SQL() *sql.DB { return d.db }

// Close closes the file; a last process to close it folds the WAL back in.
func (d *DB) Close() error { return d.db.Close() }

// Update runs fn in one write transaction (BEGIN IMMEDIATE: the file's write
// lock is taken before fn reads anything, so what fn reads cannot change
// before it commits, in this process or another). fn's error rolls back.
// Errors from SQLite are *Error values (locked, full disk, corrupt).
func (d *DB) Update(ctx context.Context, fn func(tx *sql.Tx) error) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(d.path, "cannot start a write", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return classify(d.path, "write failed", err)
	}
	if err := tx.Commit(); err != nil {
		return classify(d.path, "cannot commit a write", err)
	}
	return nil
}

// Migrate brings component's tables to len(steps): the steps not yet applied
// run in order, in one transaction with the new version. A file whose
// version for component is above len(steps) was written by a newer release
// and is refused (ErrNewerSchema). Steps are append-only: never edit one
// that has shipped, add the next.
func (d *DB) Migrate(ctx context.Context, component string, steps ...string) error {
	return d.Update(ctx, func(tx *sql.Tx) error {
		var v int
		err := tx.QueryRowContext(ctx, `SELECT version FROM store_schema WHERE component = ?`, component).Scan(&v)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if v > len(steps) {
			return &Error{Path: d.path, Kind: ErrNewerSchema,
				Problem: fmt.Sprintf("holds %s schema version %d, and this release knows versions up to %d", component, v, len(steps)),
				Fix:     "run the newer release that wrote it, or point MCPFLEET_STATE_DIR at another directory (this file is kept as it is)"}
		}
		for i := v; i < len(steps); i++ {
			if _, err := tx.ExecContext(ctx, steps[i]); err != nil {
				return fmt.Errorf("%s migration %d: %w", component, i+1, err)
			}
		}
		if v == len(steps) {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO store_schema (component, version) VALUES (?, ?)
			ON CONFLICT (component) DO UPDATE SET version = excluded.version`, component, len(steps))
		return err
	})
}

// WriteTx is a write transaction held across calls (BEGIN IMMEDIATE), for a
// caller whose read-check-write cannot be one closure. Its commit is synced
// to disk before it returns (synchronous=FULL), as user data deserves: it
// survives a power cut too. Always call Release.
type WriteTx struct {
	Tx   *sql.Tx
	d    *DB
	conn *sql.Conn
	done bool
}

// BeginWrite takes the file's write lock (this process's writers first) and
// starts a durable transaction.
func (d *DB) BeginWrite(ctx context.Context) (*WriteTx, error) {
	d.wmu.Lock()
	conn, err := d.db.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, `PRAGMA synchronous = FULL`)
	}
	if err != nil {
		if conn != nil {
			_ = conn.Close()
		}
		d.wmu.Unlock()
		return nil, classify(d.path, "cannot start a write", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		_ = conn.Close()
		d.wmu.Unlock()
		return nil, classify(d.path, "cannot start a write", err)
	}
	return &WriteTx{Tx: tx, d: d, conn: conn}, nil
}

// Commit commits; the lock is kept until Release.
func (w *WriteTx) Commit() error {
	w.done = true
	if err := w.Tx.Commit(); err != nil {
		return classify(w.d.path, "cannot commit a write", err)
	}
	return nil
}

// Release rolls back what was not committed and gives the lock back.
func (w *WriteTx) Release() {
	if !w.done {
		_ = w.Tx.Rollback()
		w.done = true
	}
	// Back to the pool's setting; a connection that cannot be reset is dropped.
	if _, err := w.conn.ExecContext(context.Background(), `PRAGMA synchronous = NORMAL`); err != nil {
		_ = w.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	_ = w.conn.Close()
	w.d.wmu.Unlock()
}
