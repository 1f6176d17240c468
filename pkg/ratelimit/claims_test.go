package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

func TestWindowClaims(t *testing.T) {
	t.Parallel()
	const W = 3 * time.Hour
	ctx := context.Background()
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			clock := newFakeClock()
			c := NewWindowClaims(W, append(be.setup(t)("claims"), WithClock(clock))...)
			w0 := t0.Unix() / int64(W/time.Second)

			claim := func(at time.Duration) Claim {
				t.Helper()
				clock.Set(t0.Add(at))
				cl, err := c.Claim(ctx, "q:uae")
				if err != nil {
					t.Fatal(err)
				}
				return cl
			}
			expect := func(cl Claim, granted bool, window int64, retry time.Duration) {
				t.Helper()
				next := time.Unix((window+1)*int64(W/time.Second), 0)
				if cl.Granted != granted || cl.Window != window || cl.RetryAfter != retry || !cl.Next.Equal(next) || cl.Key != "q:uae" {
					t.Fatalf("got %+v; want granted=%v window=%d retry=%v next=%v", cl, granted, window, retry, next)
				}
			}

			first := claim(10 * time.Minute)
			expect(first, true, w0, 0)
			expect(claim(time.Hour), false, w0, 2*time.Hour) // held: retry at the next window

			// Release (e.g. the request never left): claimable again now.
			if err := c.Release(ctx, first); err != nil {
				t.Fatal(err)
			}
			second := claim(time.Hour)
			expect(second, true, w0, 0)
			// A stale Release of the first claim must not free the second.
			if err := c.Release(ctx, first); err != nil {
				t.Fatal(err)
			}
			// Keep (upstream said 429): no retry until the window ends, to the ms.
			expect(claim(W-time.Millisecond), false, w0, time.Millisecond)
			third := claim(W) // exactly at the boundary: a new window
			expect(third, true, w0+1, 0)
			expect(claim(W+time.Second), false, w0+1, W-time.Second)

			// Releasing an old window's claim does nothing to the new one.
			if err := c.Release(ctx, second); err != nil {
				t.Fatal(err)
			}
			expect(claim(W+2*time.Second), false, w0+1, W-2*time.Second)

			// Releasing a denied claim is a no-op.
			if err := c.Release(ctx, claim(W+3*time.Second)); err != nil {
				t.Fatal(err)
			}
			expect(claim(W+4*time.Second), false, w0+1, W-4*time.Second)

			// Other keys are independent.
			if cl, err := c.Claim(ctx, "q:other"); err != nil || !cl.Granted {
				t.Fatalf("other key: %+v, %v", cl, err)
			}
		})
	}
}

// TestRedisClaimsOneWinner: replicas racing for the same window, on the
// server clock: exactly one wins.
func TestRedisClaimsOneWinner(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	replicas := []Claims{
		NewWindowClaims(time.Hour, WithRedis(srv.NewClient(t), "gnr:poll:")),
		NewWindowClaims(time.Hour, WithRedis(srv.NewClient(t), "gnr:poll:")),
	}
	var wins atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		c := replicas[i%2]
		wg.Go(func() {
			cl, err := c.Claim(context.Background(), "uae-business")
			if err != nil {
				t.Error(err)
				return
			}
			if cl.Granted {
				wins.Add(1)
			} else if cl.RetryAfter <= 0 || cl.RetryAfter > time.Hour {
				t.Errorf("denied with RetryAfter %v", cl.RetryAfter)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
}

func TestMemoryClaimsSweep(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	c := NewWindowClaims(time.Minute, WithClock(clock)).(*memClaims)
	for _, k := range []string{"a", "b", "c"} {
		_, _ = c.Claim(context.Background(), k)
	}
	clock.Advance(time.Minute)
	_, _ = c.Claim(context.Background(), "d")
	if len(c.held) != 1 {
		t.Fatalf("%d claims held after the window passed, want 1", len(c.held))
	}
}
