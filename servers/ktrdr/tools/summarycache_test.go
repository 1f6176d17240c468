package tools

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// TestSummaryCache: a fresh copy answers the same user's repeat; users,
// symbols and timeframes never share copies; forget drops only the caller's;
// an error is not cached; with Redis two replicas share the copy.
func TestSummaryCache(t *testing.T) {
	alice := identity.WithUser(context.Background(), "alice")
	bob := identity.WithUser(context.Background(), "bob")
	var fetches atomic.Int32
	fetch := func(symbol string) func(context.Context) (summaryOut, error) {
		return func(context.Context) (summaryOut, error) {
			fetches.Add(1)
			return summaryOut{Symbol: symbol, Timeframe: "1h", BarCount: int(fetches.Load())}, nil
		}
	}
	run := func(t *testing.T, a, b *summaryCache) {
		fetches.Store(0)
		steps := []struct {
			name       string
			c          *summaryCache
			ctx        context.Context
			symbol, tf string
			wantFetch  int32
		}{
			{"first read fetches", a, alice, "AAPL", "1h", 1},
			{"repeat is cached", b, alice, "AAPL", "1h", 1},
			{"another user fetches", a, bob, "AAPL", "1h", 2},
			{"another timeframe fetches", a, alice, "AAPL", "1d", 3},
			{"another symbol fetches", a, alice, "MSFT", "1h", 4},
		}
		for _, s := range steps {
			if _, err := s.c.get(s.ctx, s.symbol, s.tf, fetch(s.symbol)); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if n := fetches.Load(); n != s.wantFetch {
				t.Fatalf("%s: %d fetches, want %d", s.name, n, s.wantFetch)
			}
		}
		b.forget(alice, "AAPL", "1h")
		v, _ := a.get(alice, "AAPL", "1h", fetch("AAPL"))
		if fetches.Load() != 5 || v.BarCount != 5 {
			t.Fatalf("after forget: %d fetches, %+v", fetches.Load(), v)
		}
		if _, _ = a.get(bob, "AAPL", "1h", fetch("AAPL")); fetches.Load() != 5 {
			t.Fatal("forget dropped another user's copy")
		}
		boom := errors.New("backend down")
		failing := func(context.Context) (summaryOut, error) { fetches.Add(1); return summaryOut{}, boom }
		for range 2 {
			if _, err := a.get(alice, "EURUSD", "1h", failing); !errors.Is(err, boom) {
				t.Fatalf("error not passed through: %v", err)
			}
		}
		if fetches.Load() != 7 {
			t.Fatalf("a failed read was cached: %d fetches", fetches.Load())
		}
	}
	t.Run("memory", func(t *testing.T) {
		c := newSummaryCache(0, nil)
		run(t, c, c)
	})
	t.Run("redis shared by two replicas", func(t *testing.T) {
		rdb := redistest.Start(t)
		run(t, newSummaryCache(0, rdb), newSummaryCache(0, rdb))
	})
}
