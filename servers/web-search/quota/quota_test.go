package quota

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

var t0 = time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)

func backends(t *testing.T) map[string]func(c clock.Clock) *Quota {
	srv := redistest.StartServer(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	db := storetest.Open(t, filepath.Join(t.TempDir(), "web-search.db"))
	return map[string]func(c clock.Clock) *Quota{
		"memory": func(c clock.Clock) *Quota { return New(20, 10*time.Minute, Options{Clock: c}) },
		"redis":  func(c clock.Clock) *Quota { return New(20, 10*time.Minute, Options{Clock: c, Redis: rdb}) },
		"store":  func(c clock.Clock) *Quota { return New(20, 10*time.Minute, Options{Clock: c, Store: db}) },
	}
}

// TestSlidingWindowAndPeek: 20 calls spread over 10 minutes, the 21st is
// refused until the first leaves the window, and Peek agrees with every
// decision without spending anything.
func TestSlidingWindowAndPeek(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			c := clock.NewFake(t0)
			q := mk(c)
			ctx := context.Background()
			user := "alice-" + name
			for i := 0; i < 20; i++ {
				c.Set(t0.Add(time.Duration(i) * 20 * time.Second))
				st, err := q.Peek(ctx, user)
				if err != nil || st.Remaining != 20-i {
					t.Fatalf("peek before call %d: %+v %v", i+1, st, err)
				}
				d, err := q.Take(ctx, user)
				if err != nil || !d.Allowed || d.Remaining != 19-i {
					t.Fatalf("call %d: %+v %v", i+1, d, err)
				}
			}
			c.Set(t0.Add(9 * time.Minute))
			for k := 0; k < 3; k++ { // refusals spend nothing
				d, err := q.Take(ctx, user)
				if err != nil || d.Allowed || d.RetryAfter != time.Minute {
					t.Fatalf("21st call: %+v %v", d, err)
				}
			}
			st, err := q.Peek(ctx, user)
			if err != nil || st.Remaining != 0 || !st.NextFree.Equal(t0.Add(10*time.Minute)) {
				t.Fatalf("peek when full: %+v %v", st, err)
			}
			c.Set(t0.Add(10 * time.Minute)) // the first call leaves the window
			st, _ = q.Peek(ctx, user)
			if st.Remaining != 1 || !st.NextFree.Equal(t0.Add(10*time.Minute+20*time.Second)) {
				t.Fatalf("peek at the edge: %+v", st)
			}
			if d, _ := q.Take(ctx, user); !d.Allowed {
				t.Fatal("a freed slot was not admitted")
			}
			if d, _ := q.Take(ctx, user); d.Allowed {
				t.Fatal("admitted beyond the freed slot")
			}
			if st, _ := q.Peek(ctx, "bob-"+name); st.Remaining != 20 || !st.NextFree.IsZero() {
				t.Fatalf("another user: %+v", st)
			}
		})
	}
}

// TestRedisDownFailsClosed: with the shared store gone, Take and Peek
// return errors (the caller refuses the call) instead of admitting.
func TestRedisDownFailsClosed(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:9", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	q := New(20, 10*time.Minute, Options{Redis: rdb})
	if d, err := q.Take(context.Background(), "alice"); err == nil || d.Allowed {
		t.Fatalf("take with Redis down: %+v %v", d, err)
	}
	if _, err := q.Peek(context.Background(), "alice"); err == nil {
		t.Fatal("peek with Redis down succeeded")
	}
}

func BenchmarkTakeMemory(b *testing.B) {
	q := New(20, 10*time.Minute, Options{})
	benchTake(b, q)
}

func BenchmarkTakeRedis(b *testing.B) {
	srv := redistest.StartServer(b)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	b.Cleanup(func() { _ = rdb.Close() })
	benchTake(b, New(20, 10*time.Minute, Options{Redis: rdb}))
}

// benchTake spreads calls over 10,000 users so most are admitted, as on a
// busy server.
func benchTake(b *testing.B, q *Quota) {
	users := make([]string, 10000)
	for i := range users {
		users[i] = "user-" + strconv.Itoa(i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := q.Take(ctx, users[i%len(users)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestMirrorForgetsIdleUsers: the memory mirror behind Peek keeps only users
// with searches in the current window.
func TestMirrorForgetsIdleUsers(t *testing.T) {
	c := clock.NewFake(t0)
	q := New(20, 10*time.Minute, Options{Clock: c})
	ctx := context.Background()
	for i := 0; i < sweepEvery-1; i++ {
		_, _ = q.Take(ctx, "old-"+strconv.Itoa(i))
	}
	c.Set(t0.Add(10 * time.Minute))
	_, _ = q.Take(ctx, "new") // the sweepEvery-th admission sweeps
	q.mu.Lock()
	n := len(q.mirror)
	q.mu.Unlock()
	if n != 1 {
		t.Fatalf("mirror holds %d users, want 1", n)
	}
}
