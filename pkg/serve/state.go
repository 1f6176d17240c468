package serve

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// State modes (MCPFLEET_STATE).
const (
	StateFile   = "file"   // the embedded store: <state dir>/<server>.db (default)
	StateMemory = "memory" // process memory only: nothing outlives the process
)

// StateMode reads MCPFLEET_STATE (default: file). In-process tests choose
// the same way users do: servetest keeps state in memory unless the test
// sets MCPFLEET_STATE (Options.State).
func StateMode() (string, error) {
	switch v := os.Getenv(store.EnvMode); v {
	case StateFile, StateMemory:
		return v, nil
	case "":
		return StateFile, nil
	default:
		return "", fmt.Errorf("%s must be %s or %s, not %q", store.EnvMode, StateFile, StateMemory, v)
	}
}

// state is where a server keeps what outlives one call: Redis when
// MCPFLEET_REDIS_URL is set (replicas share it), else the embedded store,
// else memory. The store is opened on first use, so a server that keeps
// everything in Redis never touches the state directory.
type state struct {
	ctx    context.Context
	mode   string
	dir    string // --state-dir / MCPFLEET_STATE_DIR, "" for the platform default
	server string
	log    zerolog.Logger

	once sync.Once
	db   *store.DB
	err  error
}

func (s *state) open() (*store.DB, error) {
	s.once.Do(func() {
		if s.mode == StateMemory {
			return
		}
		var path string
		if path, s.err = StatePath(os.Getenv, s.server, s.dir); s.err != nil {
			return
		}
		if s.db, s.err = store.Open(s.ctx, path); s.err != nil {
			return
		}
		if s.err = ratelimit.PrepareStore(s.ctx, s.db); s.err == nil {
			s.err = cache.PrepareStore(s.ctx, s.db)
		}
		if s.err != nil {
			_ = s.db.Close()
			s.db = nil
			return
		}
		s.log.Info().Str("state_file", path).Msg("state kept in the embedded store")
	})
	return s.db, s.err
}

// StatePath is the state file the server named server keeps under dir
// (--state-dir; "" for MCPFLEET_STATE_DIR or the platform default): the
// file a tool reading that server's state from outside it must open.
func StatePath(getenv func(string) string, server, dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = store.Dir(getenv); err != nil {
			return "", err
		}
	}
	return store.File(dir, server), nil
}

func (s *state) close() {
	if s.db != nil {
		_ = s.db.Close()
	}
}

// Store is the server's embedded state file, opened on first call; nil
// (and no error) with MCPFLEET_STATE=memory. Servers use it for state Redis
// does not hold (stored user data) and, through LimitOptions and
// CacheOptions, for limits and caches when no Redis is configured. An error
// names the path and the fix; Register should return it (start-up fails).
func (r *Registry) Store() (*store.DB, error) {
	if r.state == nil { // a Registry not made by Build
		return nil, nil
	}
	return r.state.open()
}

// StateBackend names where limits and caches live: "redis", "store" or
// "memory" (for start-up logs).
func (r *Registry) StateBackend() string {
	switch {
	case r.Redis != nil:
		return "redis"
	case r.state == nil || r.state.mode == StateMemory:
		return "memory"
	default:
		return "store"
	}
}

// LimitOptions returns the backend option for a limiter or window claims
// whose keys start with prefix: Redis when configured, else the embedded
// store, else none (memory). The store failing to open is an error: a
// limit that silently resets with each process is no limit.
func (r *Registry) LimitOptions(prefix string) ([]ratelimit.Option, error) {
	if r.Redis != nil {
		return []ratelimit.Option{ratelimit.WithRedis(r.Redis, prefix)}, nil
	}
	db, err := r.Store()
	if err != nil || db == nil {
		return nil, err
	}
	return []ratelimit.Option{ratelimit.WithStore(db, prefix)}, nil
}

// CacheOptions returns the backend option for a cache whose keys start with
// prefix, like LimitOptions; a store that cannot open is only a warning
// (a cache is an optimisation) and the cache stays in memory.
func (r *Registry) CacheOptions(prefix string) []cache.Option {
	if r.Redis != nil {
		return []cache.Option{cache.WithRedis(r.Redis, prefix)}
	}
	db, err := r.Store()
	if err != nil {
		r.Log.Warn().Err(err).Str("cache", prefix).Msg("cache kept in memory: the state file cannot be used")
		return nil
	}
	if db == nil {
		return nil
	}
	return []cache.Option{cache.WithStore(db, prefix)}
}
