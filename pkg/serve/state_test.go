package serve

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

func TestStateBackendChoice(t *testing.T) {
	dir := t.TempDir()
	blocked := filepath.Join(dir, "a-file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, mode, dir string
		wantBackend     string
		wantFile        string // created state file, "" for none
		wantErr         error
	}{
		{"file in --state-dir", StateFile, filepath.Join(dir, "s"), "store", filepath.Join(dir, "s", "demo.db"), nil},
		{"memory", StateMemory, filepath.Join(dir, "m"), "memory", "", nil},
		{"unwritable directory", StateFile, filepath.Join(blocked, "sub"), "store", "", store.ErrUnwritable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			var backend string
			var cacheOpts []cache.Option
			app := App{Name: "demo", Register: func(ctx context.Context, r *Registry) error {
				backend = r.StateBackend()
				cacheOpts = r.CacheOptions("c:")
				_, err := r.LimitOptions("l:")
				return err
			}}
			b, err := Build(context.Background(), app, Options{State: c.mode, StateDir: c.dir}, zerolog.New(&logs))
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("Build: %v, want %v", err, c.wantErr)
			}
			if backend != c.wantBackend {
				t.Errorf("backend %q, want %q", backend, c.wantBackend)
			}
			if c.wantErr != nil {
				if !strings.Contains(err.Error(), blocked) || !strings.Contains(err.Error(), "MCPFLEET_STATE_DIR") {
					t.Errorf("error names neither path nor fix: %v", err)
				}
				// The cache asked first: a warning, and memory.
				if cacheOpts != nil || !strings.Contains(logs.String(), "cache kept in memory") {
					t.Errorf("cache options %v, logs %s", cacheOpts, logs.String())
				}
				return
			}
			defer b.Registry.state.close()
			if c.wantFile != "" {
				if _, err := os.Stat(c.wantFile); err != nil {
					t.Errorf("state file: %v", err)
				}
			} else if _, err := os.Stat(c.dir); !os.IsNotExist(err) {
				t.Errorf("memory mode touched %s: %v", c.dir, err)
			}
		})
	}
}

// TestLimitsShareTheFileAcrossBuilds: two servers built on one state dir
// (two processes of one server) share a limit.
func TestLimitsShareTheFileAcrossBuilds(t *testing.T) {
	dir := t.TempDir()
	var ls []ratelimit.Limiter
	app := App{Name: "demo", Register: func(ctx context.Context, r *Registry) error {
		opts, err := r.LimitOptions("rl:")
		if err != nil {
			return err
		}
		ls = append(ls, ratelimit.NewSlidingWindow(3, 1<<40, opts...))
		return nil
	}}
	for range 2 {
		b, err := Build(context.Background(), app, Options{State: StateFile, StateDir: dir}, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		defer b.Registry.state.close()
	}
	admitted := 0
	for i := range 6 {
		d, err := ls[i%2].Allow(context.Background(), "u")
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			admitted++
		}
	}
	if admitted != 3 {
		t.Fatalf("admitted %d across two servers, want 3", admitted)
	}
}

// TestStateFileBadStates: a corrupt file and a file from a newer release
// stop the start with the path and the fix; neither is written over.
func TestStateFileBadStates(t *testing.T) {
	app := App{Name: "demo", Register: func(ctx context.Context, r *Registry) error {
		_, err := r.LimitOptions("l:")
		return err
	}}
	corrupt := t.TempDir()
	junk := []byte(strings.Repeat("not sqlite ", 500))
	if err := os.WriteFile(filepath.Join(corrupt, "demo.db"), junk, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(newer, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`INSERT INTO store_schema (component, version) VALUES ('ratelimit', 99)`); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	for _, c := range []struct {
		dir  string
		kind error
		fix  string
	}{{corrupt, store.ErrCorrupt, "move the file"}, {newer, store.ErrNewerSchema, "newer release"}} {
		_, err := Build(context.Background(), app, Options{State: StateFile, StateDir: c.dir}, zerolog.Nop())
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), filepath.Join(c.dir, "demo.db")) || !strings.Contains(err.Error(), c.fix) {
			t.Errorf("%s: %v", c.dir, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(corrupt, "demo.db")); string(b) != string(junk) {
		t.Error("the corrupt file was written over")
	}
}

// TestStateFromEnv: unset means the state file, under go test as for users
// (tests that want memory say so, as servetest does).
func TestStateFromEnv(t *testing.T) {
	for v, want := range map[string]string{"": StateFile, "file": StateFile, "memory": StateMemory, "disk": ""} {
		t.Setenv(store.EnvMode, v)
		got, err := StateMode()
		if got != want || (want == "") != (err != nil) {
			t.Errorf("%q: %q, %v", v, got, err)
		}
	}
}
