package issued

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// migrations are the package's tables in the server's state file,
// append-only (see store.Migrate). Times are Unix seconds, 0 for none.
var migrations = []string{
	`CREATE TABLE issued_tokens (hash TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, server TEXT NOT NULL,
		user TEXT NOT NULL, scopes TEXT NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL,
		revoked INTEGER NOT NULL) WITHOUT ROWID`,
}

type sqliteStore struct{ db *store.DB }

// NewStore keeps the tokens in db, the server's embedded state file, which
// every process of the server on the host opens: the CLI writes, the
// servers read each request (WAL: reads never wait for a writer).
func NewStore(ctx context.Context, db *store.DB) (Store, error) {
	if err := db.Migrate(ctx, "issued_tokens", migrations...); err != nil {
		return nil, err
	}
	return sqliteStore{db}, nil
}

func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func fromUnix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func (s sqliteStore) Add(ctx context.Context, hash string, t Token) error {
	dup := false
	err := s.durable(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM issued_tokens WHERE id = ?`, t.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			dup = true
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO issued_tokens (hash, id, server, user, scopes, created, expires, revoked)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, hash, t.ID, t.Server, t.User, strings.Join(t.Scopes, " "),
			unix(t.Created), unix(t.Expires), unix(t.Revoked))
		return err
	})
	if err == nil && dup {
		return ErrDuplicate
	}
	return err
}

// durable runs fn in a write transaction synced to disk at commit: an
// issued token or a revocation is rare and must survive a power cut.
func (s sqliteStore) durable(ctx context.Context, fn func(tx *sql.Tx) error) error {
	w, err := s.db.BeginWrite(ctx)
	if err != nil {
		return err
	}
	defer w.Release()
	if err := fn(w.Tx); err != nil {
		return err
	}
	return w.Commit()
}

const columns = `id, server, user, scopes, created, expires, revoked`

func scanToken(row interface{ Scan(...any) error }) (Token, error) {
	var t Token
	var scopes string
	var created, expires, revoked int64
	if err := row.Scan(&t.ID, &t.Server, &t.User, &scopes, &created, &expires, &revoked); err != nil {
		return Token{}, err
	}
	t.Scopes = strings.Fields(scopes)
	t.Created, t.Expires, t.Revoked = fromUnix(created), fromUnix(expires), fromUnix(revoked)
	return t, nil
}

func (s sqliteStore) Lookup(ctx context.Context, hash string) (Token, bool, error) {
	t, err := scanToken(s.db.SQL().QueryRowContext(ctx, `SELECT `+columns+` FROM issued_tokens WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, false, nil
	}
	return t, err == nil, err
}

func (s sqliteStore) List(ctx context.Context) ([]Token, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT `+columns+` FROM issued_tokens ORDER BY created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s sqliteStore) Revoke(ctx context.Context, id string, now time.Time) (bool, error) {
	found := false
	err := s.durable(ctx, func(tx *sql.Tx) error {
		var revoked int64
		err := tx.QueryRowContext(ctx, `SELECT revoked FROM issued_tokens WHERE id = ?`, id).Scan(&revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if revoked != 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE issued_tokens SET revoked = ? WHERE id = ?`, max(now.Unix(), 1), id)
		return err
	})
	return found, err
}
