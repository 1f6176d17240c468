package ratelimit

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// t0 is window-aligned for every window the tests use.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newFakeClock() *clock.Fake { return clock.NewFake(t0) }

// backend names a storage. setup makes, per test, a function that returns
// the options for one limiter; Redis limiters of one test share one server
// and are kept apart by prefix.
type backend struct {
	name  string
	setup func(t *testing.T) func(prefix string) []Option
}

func backends() []backend {
	return []backend{
		{"memory", func(*testing.T) func(string) []Option {
			return func(string) []Option { return nil }
		}},
		{"store", func(t *testing.T) func(string) []Option {
			db := storetest.Open(t, filepath.Join(t.TempDir(), "rl.db"))
			return func(prefix string) []Option { return []Option{WithStore(db, "rl:test:"+prefix+":")} }
		}},
		{"redis", func(t *testing.T) func(string) []Option {
			rdb := redistest.Start(t)
			return func(prefix string) []Option { return []Option{WithRedis(rdb, "rl:test:"+prefix+":")} }
		}},
	}
}
