package ratelimit

import (
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// t0 is window-aligned for every window the tests use.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

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
		{"redis", func(t *testing.T) func(string) []Option {
			rdb := redistest.Start(t)
			return func(prefix string) []Option { return []Option{WithRedis(rdb, "rl:test:"+prefix+":")} }
		}},
	}
}
