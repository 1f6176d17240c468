package ratelimit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/redis/go-redis/v9"
)

type step struct {
	at   time.Duration // since t0
	want Decision
}

func allowed(limit, remaining int) Decision {
	return Decision{Allowed: true, Limit: limit, Remaining: remaining}
}

func denied(limit int, retry time.Duration) Decision {
	return Decision{Limit: limit, RetryAfter: retry}
}

func runSteps(t *testing.T, l Limiter, clock *clock.Fake, key string, steps []step) {
	t.Helper()
	for i, s := range steps {
		clock.Set(t0.Add(s.at))
		got, err := l.Allow(context.Background(), key)
		if err != nil {
			t.Fatalf("step %d at %v: %v", i, s.at, err)
		}
		if got != s.want {
			t.Fatalf("step %d at %v: got %+v, want %+v", i, s.at, got, s.want)
		}
	}
}

func TestWindowEdges(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	cases := []struct {
		name  string
		make  func(opts ...Option) Limiter
		steps []step
	}{
		{
			name: "sliding 3 per 10s",
			make: func(o ...Option) Limiter { return NewSlidingWindow(3, 10*time.Second, o...) },
			steps: []step{
				{0, allowed(3, 2)},
				{1 * time.Second, allowed(3, 1)},
				{2 * time.Second, allowed(3, 0)},
				{3 * time.Second, denied(3, 7*time.Second)},
				{10*time.Second - ms, denied(3, ms)}, // just before the oldest leaves
				{10 * time.Second, allowed(3, 0)},    // exactly at oldest+window: it no longer counts
				{10 * time.Second, denied(3, time.Second)},
				{11 * time.Second, allowed(3, 0)},
				{12*time.Second - ms, denied(3, ms)},
				{40 * time.Second, allowed(3, 2)}, // all expired
			},
		},
		{
			name: "sliding 1 per 1s",
			make: func(o ...Option) Limiter { return NewSlidingWindow(1, time.Second, o...) },
			steps: []step{
				{0, allowed(1, 0)},
				{0, denied(1, time.Second)},
				{time.Second - ms, denied(1, ms)},
				{time.Second, allowed(1, 0)},
			},
		},
		{
			name: "token bucket 1/s burst 3",
			make: func(o ...Option) Limiter { return NewTokenBucket(1, time.Second, 3, o...) },
			steps: []step{
				{0, allowed(3, 2)},
				{0, allowed(3, 1)},
				{0, allowed(3, 0)},
				{0, denied(3, time.Second)},
				{time.Second - ms, denied(3, ms)},
				{time.Second, allowed(3, 0)}, // exactly one interval later: one token back
				{time.Second, denied(3, time.Second)},
				{2500 * ms, allowed(3, 0)},
				{2500 * ms, denied(3, 500*ms)},
				{10 * time.Second, allowed(3, 2)}, // refilled, never above burst
			},
		},
		{
			name: "token bucket 20/s burst 1",
			make: func(o ...Option) Limiter { return NewTokenBucket(20, time.Second, 1, o...) },
			steps: []step{
				{0, allowed(1, 0)},
				{0, denied(1, 50*ms)},
				{50 * ms, allowed(1, 0)},
				{99 * ms, denied(1, ms)},
				{100 * ms, allowed(1, 0)},
			},
		},
	}
	for _, be := range backends() {
		for _, tc := range cases {
			t.Run(be.name+"/"+tc.name, func(t *testing.T) {
				clock := newFakeClock()
				l := tc.make(append(be.setup(t)(""), WithClock(clock))...)
				runSteps(t, l, clock, "user-1", tc.steps)
				// Another key is untouched.
				clock.Set(t0.Add(tc.steps[len(tc.steps)-1].at))
				if d, err := l.Allow(context.Background(), "user-2"); err != nil || !d.Allowed {
					t.Fatalf("fresh key: %+v, %v", d, err)
				}
			})
		}
	}
}

// TestSlidingWindowVersusTokenBucket shows why "20 per 10 minutes" needs the
// sliding log: a burst-20 token bucket admits 39 calls in the first rolling
// 10 minutes, the sliding window exactly 20.
func TestSlidingWindowVersusTokenBucket(t *testing.T) {
	t.Parallel()
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			count := func(l Limiter, clock *clock.Fake) int {
				n := 0
				for s := 0; s < 600; s++ { // one attempt per second for 10 minutes
					clock.Set(t0.Add(time.Duration(s) * time.Second))
					d, err := l.Allow(context.Background(), "u")
					if err != nil {
						t.Fatal(err)
					}
					if d.Allowed {
						n++
					}
				}
				return n
			}
			opts := be.setup(t)
			c1, c2 := newFakeClock(), newFakeClock()
			sw := NewSlidingWindow(20, 10*time.Minute, append(opts("sw"), WithClock(c1))...)
			tb := NewTokenBucket(20, 10*time.Minute, 20, append(opts("tb"), WithClock(c2))...)
			if got := count(sw, c1); got != 20 {
				t.Errorf("sliding window admitted %d in 10 minutes, want 20", got)
			}
			if got := count(tb, c2); got != 39 {
				t.Errorf("token bucket admitted %d in 10 minutes, want 39", got)
			}
		})
	}
}

// TestSlidingWindowNeverExceedsLimit drives random call times and checks
// the defining property on the admitted calls: no interval of length window
// holds more than limit of them.
func TestSlidingWindowNeverExceedsLimit(t *testing.T) {
	t.Parallel()
	const limit, window = 5, time.Second
	clock := newFakeClock()
	l := NewSlidingWindow(limit, window, WithClock(clock))
	rng := rand.New(rand.NewPCG(1, 2))
	var admitted []time.Time
	now := t0
	for i := 0; i < 5000; i++ {
		now = now.Add(time.Duration(rng.Int64N(int64(window / 4))))
		clock.Set(now)
		d, _ := l.Allow(context.Background(), "k")
		if d.Allowed {
			admitted = append(admitted, now)
		} else if d.RetryAfter <= 0 || d.RetryAfter > window {
			t.Fatalf("denied with RetryAfter %v", d.RetryAfter)
		}
	}
	for i := limit; i < len(admitted); i++ {
		if gap := admitted[i].Sub(admitted[i-limit]); gap < window {
			t.Fatalf("admissions %d..%d lie within %v < %v", i-limit, i, gap, window)
		}
	}
	if len(admitted) < 100 {
		t.Fatalf("only %d admitted: the limiter is too strict", len(admitted))
	}
}

// hammer calls l.Allow for key from goroutines until each has tried tries
// times, and returns how many calls were admitted.
func hammer(t *testing.T, goroutines, tries int, key string, ls ...Limiter) int64 {
	t.Helper()
	var ok atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		l := ls[g%len(ls)]
		wg.Go(func() {
			for i := 0; i < tries; i++ {
				d, err := l.Allow(context.Background(), key)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return ok.Load()
}

func TestMemoryConcurrentAdmitsExactlyN(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // frozen: nothing refills during the test
	cases := []struct {
		name string
		l    Limiter
		want int64
	}{
		{"sliding", NewSlidingWindow(100, time.Minute, WithClock(clock)), 100},
		{"token bucket", NewTokenBucket(1, time.Hour, 37, WithClock(clock)), 37},
		{"all", All(NewSlidingWindow(50, time.Minute, WithClock(clock)), NewTokenBucket(10, time.Second, 20, WithClock(clock))), 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, key := range []string{"a", "b"} {
				if got := hammer(t, 32, 50, key, tc.l); got != tc.want {
					t.Fatalf("key %s: admitted %d, want %d", key, got, tc.want)
				}
			}
		})
	}
}

// TestRedisTwoClientsAdmitExactlyN plays two replicas: two clients (two
// connection pools) against one real redis-server, on the server clock.
func TestRedisTwoClientsAdmitExactlyN(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	a, b := srv.NewClient(t), srv.NewClient(t)
	cases := []struct {
		name string
		make func(rdb *redis.Client) Limiter
		want int64
	}{
		{"sliding 25 per hour", func(rdb *redis.Client) Limiter {
			return NewSlidingWindow(25, time.Hour, WithRedis(rdb, "rl:sw:"))
		}, 25},
		{"token bucket burst 15, 1 per hour", func(rdb *redis.Client) Limiter {
			return NewTokenBucket(1, time.Hour, 15, WithRedis(rdb, "rl:tb:"))
		}, 15},
		{"all 10 per hour and 30 per hour", func(rdb *redis.Client) Limiter {
			return All(NewSlidingWindow(10, time.Hour, WithRedis(rdb, "rl:a1:")), NewTokenBucket(1, time.Hour, 30, WithRedis(rdb, "rl:a2:")))
		}, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			la, lb := tc.make(a), tc.make(b)
			if got := hammer(t, 16, 10, "user-1", la, lb); got != tc.want {
				t.Fatalf("admitted %d between two clients, want %d", got, tc.want)
			}
		})
	}
}

func TestRedisKeysArePrefixedAndExpire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := redistest.Start(t)
	sw := NewSlidingWindow(3, 10*time.Second, WithRedis(rdb, "rl:ws:"))
	tb := NewTokenBucket(1, time.Second, 5, WithRedis(rdb, "rl:tb:"))
	for _, l := range []Limiter{sw, tb} {
		if _, err := l.Allow(ctx, "user-7"); err != nil {
			t.Fatal(err)
		}
	}
	for key, max := range map[string]time.Duration{"rl:ws:{user-7}": 10 * time.Second, "rl:tb:{user-7}": time.Second} {
		ttl, err := rdb.PTTL(ctx, key).Result()
		if err != nil || ttl <= 0 || ttl > max {
			t.Errorf("%s: PTTL %v (err %v), want in (0, %v]", key, ttl, err, max)
		}
	}
}

func TestRedisScriptCacheFlushed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := redistest.Start(t)
	l := NewSlidingWindow(2, time.Minute, WithRedis(rdb, "rl:"))
	if _, err := l.Allow(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if err := rdb.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	d, err := l.Allow(ctx, "k") // EVALSHA fails with NOSCRIPT, EVAL takes over
	if err != nil || !d.Allowed || d.Remaining != 0 {
		t.Fatalf("after SCRIPT FLUSH: %+v, %v", d, err)
	}
}

func TestRedisDownFailsClosed(t *testing.T) {
	t.Parallel()
	srv := redistest.StartServer(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, DialTimeout: 100 * time.Millisecond, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})
	defer rdb.Close()
	l := NewSlidingWindow(10, time.Minute, WithRedis(rdb, "rl:"))
	c := NewWindowClaims(time.Hour, WithRedis(rdb, "cl:"))
	if err := rdb.Do(context.Background(), "SHUTDOWN", "NOSAVE").Err(); err == nil {
		t.Log("SHUTDOWN returned no error")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := l.Allow(ctx, "k")
	if err == nil || d.Allowed {
		t.Fatalf("Redis down: got %+v, %v; want an error and no admission", d, err)
	}
	if cl, err := c.Claim(ctx, "k"); err == nil || cl.Granted {
		t.Fatalf("Redis down: claim %+v, %v; want an error", cl, err)
	}
	if err := Wait(ctx, l, "k"); err == nil {
		t.Fatal("Wait with Redis down returned nil")
	}
}

func TestMemorySweepsIdleKeys(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	for _, l := range []Limiter{
		NewSlidingWindow(3, time.Minute, WithClock(clock)),
		NewTokenBucket(1, time.Second, 10, WithClock(clock)),
	} {
		for i := 0; i < 1000; i++ {
			_, _ = l.Allow(context.Background(), fmt.Sprint("k", i))
		}
		store := l.(*limiter).mem
		if n := store.keys(); n != 1000 {
			t.Fatalf("%d keys stored, want 1000", n)
		}
		clock.Advance(3 * time.Minute)
		for i := 0; i < 50; i++ { // the first call sweeps every shard
			_, _ = l.Allow(context.Background(), fmt.Sprint("new", i))
		}
		if n := store.keys(); n != 50 {
			t.Fatalf("%d keys after the sweep, want 50 (the live ones)", n)
		}
	}
}

func TestConstructorsRejectNonsense(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(){
		"sliding limit 0":  func() { NewSlidingWindow(0, time.Second) },
		"sliding window 0": func() { NewSlidingWindow(1, 0) },
		"bucket rate 0":    func() { NewTokenBucket(0, time.Second, 1) },
		"bucket burst 0":   func() { NewTokenBucket(1, time.Second, 0) },
		"bucket overflow":  func() { NewTokenBucket(1, 1000*time.Hour, 1<<40) },
		"claims window 0":  func() { NewWindowClaims(0) },
		"all empty":        func() { All() },
		"all foreign":      func() { All(limiterFunc(nil)) },
		"all two clients": func() {
			All(NewSlidingWindow(1, time.Second, WithRedis(redis.NewClient(&redis.Options{}), "a")), NewSlidingWindow(1, time.Second, WithRedis(redis.NewClient(&redis.Options{}), "b")))
		},
		"nil clock": func() { NewSlidingWindow(1, time.Second, WithClock(nil)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

type limiterFunc func(context.Context, string) (Decision, error)

func (f limiterFunc) Allow(ctx context.Context, key string) (Decision, error) { return f(ctx, key) }
