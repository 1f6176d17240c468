package rules

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// dbMigrations are the rules' tables in the state file, append-only. The
// document is one row: every write replaces it in one transaction, so the
// Store's checks (quotas, read-back) see exactly what is committed.
var dbMigrations = []string{
	`CREATE TABLE ziwei_rules_doc (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL, gen INTEGER NOT NULL)`,
	`CREATE TABLE ziwei_rules_import (path TEXT NOT NULL, rules INTEGER NOT NULL, at TEXT NOT NULL)`,
}

// NewDBStore keeps the rules in the server's state file (pkg/store): written
// in one transaction (a crash loses nothing committed), shared by every
// process of the server on the host. legacy is the JSON rules file older
// releases wrote: when the state file holds no rules yet, it is imported
// once (and left on disk as it is); a legacy file that cannot be read stops
// the start with its path and the fix.
func NewDBStore(ctx context.Context, db *store.DB, legacy string, log zerolog.Logger) (*Store, error) {
	if err := db.Migrate(ctx, "ziwei-rules", dbMigrations...); err != nil {
		return nil, err
	}
	d := &dbDoc{ctx: context.WithoutCancel(ctx), db: db}
	if err := d.importOnce(legacy, log); err != nil {
		return nil, err
	}
	s := &Store{path: db.Path(), doc: d, limits: DefaultLimits(), log: zerolog.Nop()}
	return s, nil
}

type dbDoc struct {
	ctx context.Context
	db  *store.DB
	w   *store.WriteTx // held between lock and unlock (the Store's mutex serialises them)
}

func (d *dbDoc) stat() (docStamp, error) {
	var st docStamp
	err := d.db.SQL().QueryRowContext(d.ctx, `SELECT gen, length(data) FROM ziwei_rules_doc WHERE id = 1`).Scan(&st.gen, &st.size)
	if errors.Is(err, sql.ErrNoRows) {
		return docStamp{}, nil
	}
	if err != nil {
		return docStamp{}, fmt.Errorf("rules: %w", err)
	}
	st.exists = true
	return st, nil
}

func (d *dbDoc) read() ([]byte, error) {
	var b []byte
	if err := d.db.SQL().QueryRowContext(d.ctx, `SELECT data FROM ziwei_rules_doc WHERE id = 1`).Scan(&b); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return b, nil
}

func (d *dbDoc) lock() (func(), error) {
	w, err := d.db.BeginWrite(d.ctx)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	d.w = w
	return func() { d.w = nil; w.Release() }, nil
}

func (d *dbDoc) write(data []byte) error {
	if d.w == nil {
		return errors.New("rules: write without the lock")
	}
	if _, err := d.w.Tx.ExecContext(d.ctx, `INSERT INTO ziwei_rules_doc (id, data, gen) VALUES (1, ?, 1)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data, gen = gen + 1`, data); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	if err := d.w.Commit(); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	return nil
}

// importOnce copies the legacy JSON file in, in one transaction, unless the
// state file already holds rules or has imported before.
func (d *dbDoc) importOnce(legacy string, log zerolog.Logger) error {
	if legacy == "" {
		return nil
	}
	data, err := os.ReadFile(legacy)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("rules: cannot read the rules file %s to import it into the state file: %w; make it readable, or move it aside to start without it", legacy, err)
	}
	var imported int
	err = d.db.Update(d.ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(d.ctx, `SELECT (SELECT count(*) FROM ziwei_rules_doc) + (SELECT count(*) FROM ziwei_rules_import)`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		if len(data) > readCap {
			return fmt.Errorf("rules file %s is %d bytes, over the %d bytes this server reads; move it aside", legacy, len(data), readCap)
		}
		entries, err := decodeFile(data)
		if err != nil {
			return fmt.Errorf("rules file %s cannot be imported into the state file: %w; fix it or move it aside", legacy, err)
		}
		if _, err := tx.ExecContext(d.ctx, `INSERT INTO ziwei_rules_doc (id, data, gen) VALUES (1, ?, 1)`, encodeFile(entries)); err != nil {
			return err
		}
		imported = len(entries)
		_, err = tx.ExecContext(d.ctx, `INSERT INTO ziwei_rules_import (path, rules, at) VALUES (?, ?, datetime('now'))`, legacy, imported)
		return err
	})
	if err != nil {
		return err
	}
	if imported > 0 {
		log.Info().Str("rules_file", legacy).Int("rules", imported).Str("state_file", d.db.Path()).
			Msg("imported the rules file into the state file once; it is no longer read or written (delete it when you are satisfied)")
	}
	return nil
}

// NewMemoryStore keeps the rules in this process only (MCPFLEET_STATE=memory).
func NewMemoryStore() *Store {
	return &Store{path: "memory", doc: &memDoc{}, limits: DefaultLimits(), log: zerolog.Nop()}
}

type memDoc struct {
	mu   sync.Mutex // the write lock
	data []byte
	gen  int64
	smu  sync.Mutex
}

func (m *memDoc) stat() (docStamp, error) {
	m.smu.Lock()
	defer m.smu.Unlock()
	return docStamp{exists: m.data != nil, gen: m.gen, size: int64(len(m.data))}, nil
}

func (m *memDoc) read() ([]byte, error) {
	m.smu.Lock()
	defer m.smu.Unlock()
	return m.data, nil
}

func (m *memDoc) lock() (func(), error) { m.mu.Lock(); return m.mu.Unlock, nil }

func (m *memDoc) write(data []byte) error {
	m.smu.Lock()
	defer m.smu.Unlock()
	m.data, m.gen = data, m.gen+1
	return nil
}
