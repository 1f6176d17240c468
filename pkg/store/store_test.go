package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func open(t *testing.T, path string, opts ...Option) *DB {
	t.Helper()
	d, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func TestMigrateVersions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	d := open(t, path)
	v1 := []string{`CREATE TABLE t (k TEXT PRIMARY KEY)`}
	v2 := append(v1, `ALTER TABLE t ADD COLUMN v INTEGER NOT NULL DEFAULT 0`)
	if err := d.Migrate(ctx, "c", v1...); err != nil {
		t.Fatal(err)
	}
	if err := d.Migrate(ctx, "c", v1...); err != nil { // idempotent
		t.Fatal(err)
	}
	if err := d.Migrate(ctx, "c", v2...); err != nil {
		t.Fatal(err)
	}
	if err := d.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO t (k, v) VALUES ('a', 1)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// An older release opening the file refuses it, naming the versions.
	err := d.Migrate(ctx, "c", v1...)
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("older release on a newer file: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(notDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.db")
	if err := os.WriteFile(corrupt, []byte(strings.Repeat("not a database ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		kind       error
		fix        string
	}{
		{"directory cannot be made", filepath.Join(notDir, "sub", "s.db"), ErrUnwritable, "MCPFLEET_STATE_DIR"},
		{"file is a directory", dir, ErrUnwritable, "MCPFLEET_STATE_DIR"},
		{"corrupt file", corrupt, ErrCorrupt, "move the file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(context.Background(), c.path)
			if !errors.Is(err, c.kind) {
				t.Fatalf("got %v, want %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.fix) || !strings.Contains(err.Error(), filepath.Dir(c.path)) {
				t.Fatalf("error does not name the path and the fix: %v", err)
			}
		})
	}
}

func TestOpenUnwritableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through file modes; the not-a-directory case in TestOpenErrors covers the path")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
	_, err := Open(context.Background(), filepath.Join(dir, "s.db"))
	if !errors.Is(err, ErrUnwritable) {
		t.Fatalf("got %v", err)
	}
}

func TestOpenLockedFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	holder := open(t, path)
	conn, err := holder.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = conn.ExecContext(ctx, `ROLLBACK`) }()
	_, err = Open(ctx, path, WithBusyTimeout(50*time.Millisecond))
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "another process") {
		t.Fatalf("got %v", err)
	}
}

func TestFullDisk(t *testing.T) {
	ctx := context.Background()
	d := open(t, filepath.Join(t.TempDir(), "s.db"))
	if err := d.Migrate(ctx, "c", `CREATE TABLE t (v BLOB)`); err != nil {
		t.Fatal(err)
	}
	// One connection, capped in pages: SQLite answers SQLITE_FULL exactly as
	// it does when the file system is out of space.
	d.SQL().SetMaxOpenConns(1)
	if _, err := d.SQL().ExecContext(ctx, `PRAGMA max_page_count = 8`); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 64<<10)
	err := d.Update(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO t (v) VALUES (?)`, big)
		return err
	})
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "free disk space") {
		t.Fatalf("got %v", err)
	}
}

func TestDirFor(t *testing.T) {
	cases := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/mcpfleet"},
		{"linux", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/x"}, "/x/mcpfleet"},
		{"linux", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "rel"}, "/home/u/.local/state/mcpfleet"},
		{"linux", map[string]string{"HOME": "/home/u", EnvDir: "/srv/state"}, "/srv/state"},
		{"darwin", map[string]string{"HOME": "/Users/u"}, "/Users/u/Library/Application Support/mcpfleet"},
		{"windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}, filepath.Join(`C:\Users\u\AppData\Local`, "mcpfleet")},
	}
	for _, c := range cases {
		got, err := dirFor(c.goos, func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("%s %v: got %q, %v; want %q", c.goos, c.env, got, err, c.want)
		}
	}
	if _, err := dirFor("linux", func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), EnvDir) {
		t.Errorf("no HOME: %v", err)
	}
}

// writerEnv makes the test binary a child that commits numbered rows and
// prints each number after its commit returned.
const writerEnv = "STORE_TEST_WRITER"

func TestMain(m *testing.M) {
	if path := os.Getenv(writerEnv); path != "" {
		os.Exit(runWriter(path))
	}
	os.Exit(m.Run())
}

func runWriter(path string) int {
	ctx := context.Background()
	d, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := d.Migrate(ctx, "crash", `CREATE TABLE rows (n INTEGER PRIMARY KEY, pad BLOB)`); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pad := make([]byte, 3000) // rows span pages, so a kill can land inside a page write
	w := bufio.NewWriter(os.Stdout)
	var start int
	if err := d.SQL().QueryRow(`SELECT coalesce(max(n), -1) + 1 FROM rows`).Scan(&start); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for n := start; ; n++ {
		if err := d.Update(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO rows (n, pad) VALUES (?, ?)`, n, pad)
			return err
		}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintln(w, n)
		_ = w.Flush()
	}
}

// TestKillMidWriteKeepsCommitted kills a writer with SIGKILL while it
// commits, twice, and checks that every row it reported committed is there.
func TestKillMidWriteKeepsCommitted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	var committed []int
	for round := 0; round < 2; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), writerEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		seen := 0
		for sc.Scan() {
			n, err := strconv.Atoi(sc.Text())
			if err != nil {
				t.Fatal(err)
			}
			committed = append(committed, n)
			if seen++; seen == 150 {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
		_ = cmd.Wait()
		if seen < 150 {
			t.Fatalf("writer stopped after %d rows: %s", seen, stderr.String())
		}
	}
	d := open(t, path)
	for _, n := range committed {
		var one int
		if err := d.SQL().QueryRow(`SELECT count(*) FROM rows WHERE n = ?`, n).Scan(&one); err != nil || one != 1 {
			t.Fatalf("row %d was reported committed and is missing after kill -9 (%v)", n, err)
		}
	}
	if len(committed) < 300 {
		t.Fatalf("%d rows reported", len(committed))
	}
}
