package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/redis/go-redis/v9"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type backend struct {
	name string
	opts func(t *testing.T) []Option
}

func backends() []backend {
	return []backend{
		{"memory", func(*testing.T) []Option { return nil }},
		{"store", func(t *testing.T) []Option { return []Option{WithStore(openStore(t, ""), "cache:test:")} }},
		{"redis", func(t *testing.T) []Option { return []Option{WithRedis(redistest.Start(t), "cache:test:")} }},
	}
}

// Feed is a JSON-round-trippable value like the servers cache.
type Feed struct {
	Query string   `json:"query"`
	Items []string `json:"items"`
}

var errUpstream = errors.New("upstream 503")

func TestGetSemantics(t *testing.T) {
	t.Parallel()
	const ttl, staleFor = 10 * time.Minute, time.Hour
	const ms = time.Millisecond
	type step struct {
		at        time.Duration // since t0
		op        string        // "get", "refresh", "invalidate", "set"
		fetch     string        // value the upstream returns; "" = errUpstream
		want      string        // value returned; "" = an error is expected
		hit       bool
		stale     bool
		age       time.Duration
		wantFetch bool
	}
	steps := []step{
		{at: 0, op: "get", fetch: "v1", want: "v1", wantFetch: true},
		{at: 5 * time.Minute, op: "get", fetch: "x", want: "v1", hit: true, age: 5 * time.Minute},
		{at: ttl - ms, op: "get", fetch: "x", want: "v1", hit: true, age: ttl - ms},
		{at: ttl, op: "get", fetch: "v2", want: "v2", wantFetch: true}, // exactly at ttl: expired
		{at: 2 * ttl, op: "get", fetch: "", want: "v2", hit: true, stale: true, age: ttl, wantFetch: true},
		{at: ttl + ttl + staleFor - ms, op: "get", fetch: "", want: "v2", hit: true, stale: true, age: ttl + staleFor - ms, wantFetch: true},
		{at: ttl + ttl + staleFor, op: "get", fetch: "", want: "", wantFetch: true}, // beyond the stale window
		{at: 2 * time.Hour, op: "get", fetch: "v3", want: "v3", wantFetch: true},
		{at: 2*time.Hour + time.Minute, op: "refresh", fetch: "v4", want: "v4", wantFetch: true}, // fresh, but forced
		{at: 2*time.Hour + 2*time.Minute, op: "refresh", fetch: "", want: "v4", hit: true, stale: true, age: time.Minute, wantFetch: true},
		{at: 2*time.Hour + 3*time.Minute, op: "get", fetch: "x", want: "v4", hit: true, age: 2 * time.Minute},
		{at: 2*time.Hour + 4*time.Minute, op: "invalidate"},
		{at: 2*time.Hour + 4*time.Minute, op: "get", fetch: "", want: "", wantFetch: true},
		{at: 3 * time.Hour, op: "set", fetch: "v5"},
		{at: 3*time.Hour + time.Minute, op: "get", fetch: "x", want: "v5", hit: true, age: time.Minute},
	}
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			clock := clock.NewFake(t0)
			c := New[Feed](ttl, append(be.opts(t), WithClock(clock), WithStaleFor(staleFor))...)
			ctx := context.Background()
			for i, s := range steps {
				clock.Set(t0.Add(s.at))
				fetched := false
				fetch := func(context.Context) (Feed, error) {
					fetched = true
					if s.fetch == "" {
						return Feed{}, errUpstream
					}
					return Feed{Query: "q", Items: []string{s.fetch}}, nil
				}
				var (
					v    Feed
					meta Meta
					err  error
				)
				switch s.op {
				case "get":
					v, meta, err = c.Get(ctx, "q", fetch)
				case "refresh":
					v, meta, err = c.Refresh(ctx, "q", fetch)
				case "invalidate":
					if err := c.Invalidate(ctx, "q"); err != nil {
						t.Fatal(err)
					}
					continue
				case "set":
					if err := c.Set(ctx, "q", Feed{Query: "q", Items: []string{s.fetch}}); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if fetched != s.wantFetch {
					t.Fatalf("step %d: fetched=%v, want %v", i, fetched, s.wantFetch)
				}
				if s.want == "" {
					if !errors.Is(err, errUpstream) {
						t.Fatalf("step %d: got %+v, %+v, %v; want errUpstream", i, v, meta, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				wantMeta := Meta{Hit: s.hit, Stale: s.stale, Age: s.age, FetchedAt: clock.Now().Add(-s.age)}
				if s.stale {
					wantMeta.Err = errUpstream
				}
				if len(v.Items) != 1 || v.Items[0] != s.want || !metaEqual(meta, wantMeta) {
					t.Fatalf("step %d: got %+v %+v; want %s %+v", i, v, meta, s.want, wantMeta)
				}
			}
		})
	}
}

func metaEqual(a, b Meta) bool {
	return a.Hit == b.Hit && a.Stale == b.Stale && a.Age == b.Age && a.FetchedAt.Equal(b.FetchedAt) && a.Err == b.Err
}

func TestSingleflight(t *testing.T) {
	t.Parallel()
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			c := New[Feed](time.Minute, be.opts(t)...)
			var fetches atomic.Int64
			release := make(chan struct{})
			fetch := func(context.Context) (Feed, error) {
				fetches.Add(1)
				<-release
				return Feed{Query: "shared"}, nil
			}
			var wg sync.WaitGroup
			results := make(chan Feed, 50)
			for i := 0; i < 50; i++ {
				wg.Go(func() {
					v, _, err := c.Get(context.Background(), "k", fetch)
					if err != nil {
						t.Error(err)
					}
					results <- v
				})
			}
			time.Sleep(50 * time.Millisecond) // let the callers pile up on the flight
			close(release)
			wg.Wait()
			close(results)
			for v := range results {
				if v.Query != "shared" {
					t.Fatalf("got %+v", v)
				}
			}
			// Late arrivals may start a second flight after the first ended,
			// but its re-check finds the stored value and does not fetch.
			if n := fetches.Load(); n != 1 {
				t.Fatalf("%d fetches for 50 concurrent callers, want 1", n)
			}
		})
	}
}

// TestCallerGivesUp: a caller whose context ends gets the stale copy at
// once; the fetch carries on for everyone else and is stored.
func TestCallerGivesUp(t *testing.T) {
	t.Parallel()
	clock := clock.NewFake(t0)
	c := New[string](time.Minute, WithClock(clock))
	if err := c.Set(context.Background(), "k", "old"); err != nil {
		t.Fatal(err)
	}
	clock.Set(t0.Add(2 * time.Minute))
	release, done := make(chan struct{}), make(chan struct{})
	var fetchCtxErr error
	slow := func(ctx context.Context) (string, error) {
		defer close(done)
		<-release
		fetchCtxErr = ctx.Err()
		return "new", nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	v, meta, err := c.Get(ctx, "k", slow)
	if err != nil || v != "old" || !meta.Stale || !errors.Is(meta.Err, context.Canceled) {
		t.Fatalf("got %q %+v %v; want the stale copy with context.Canceled", v, meta, err)
	}
	close(release)
	<-done
	if fetchCtxErr != nil {
		t.Fatalf("the fetch's context was cancelled with its first caller: %v", fetchCtxErr)
	}
	v, meta, err = c.Get(context.Background(), "k", func(context.Context) (string, error) { return "", errUpstream })
	if err != nil || v != "new" || !meta.Hit || meta.Stale {
		t.Fatalf("after the fetch finished: %q %+v %v", v, meta, err)
	}
}

func TestFetchPanicBecomesError(t *testing.T) {
	t.Parallel()
	c := New[int](time.Minute)
	_, _, err := c.Get(context.Background(), "k", func(context.Context) (int, error) { panic("boom") })
	if err == nil {
		t.Fatal("no error from a panicking fetch")
	}
}

func TestStaleForZeroNeverServesStale(t *testing.T) {
	t.Parallel()
	clock := clock.NewFake(t0)
	c := New[int](time.Minute, WithClock(clock), WithStaleFor(0))
	_ = c.Set(context.Background(), "k", 1)
	clock.Set(t0.Add(time.Minute))
	if _, _, err := c.Get(context.Background(), "k", func(context.Context) (int, error) { return 0, errUpstream }); !errors.Is(err, errUpstream) {
		t.Fatalf("got %v, want errUpstream", err)
	}
}

func TestMemoryLRUAndSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := clock.NewFake(t0)
	c := New[string](time.Minute, WithClock(clock), WithMaxEntries(3), WithStaleFor(time.Hour))
	for _, k := range []string{"a", "b", "c"} {
		_ = c.Set(ctx, k, k)
	}
	fail := func(context.Context) (string, error) { return "", errUpstream }
	if _, m, _ := c.Get(ctx, "a", fail); !m.Hit { // a is now the most recently used
		t.Fatal("a missing")
	}
	_ = c.Set(ctx, "d", "d") // evicts b, the least recently used
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, _, err := c.Get(ctx, k, fail); (err == nil) != want {
			t.Errorf("%s: present=%v, want %v", k, err == nil, want)
		}
	}

	store := c.store.(*memStore[string])
	clock.Set(t0.Add(2 * time.Hour)) // all dead (older than ttl+staleFor)
	_ = c.Set(ctx, "e", "e")         // a write sweeps the dead
	if n := store.len(); n != 1 {
		t.Fatalf("%d entries after the sweep, want 1", n)
	}
}

func TestRedisSharedBetweenReplicas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := redistest.StartServer(t)
	a := New[Feed](time.Minute, WithRedis(srv.NewClient(t), "gnr:feed:"))
	b := New[Feed](time.Minute, WithRedis(srv.NewClient(t), "gnr:feed:"))
	want := Feed{Query: "uae", Items: []string{"one", "two"}}
	if _, _, err := a.Get(ctx, "uae", func(context.Context) (Feed, error) { return want, nil }); err != nil {
		t.Fatal(err)
	}
	got, meta, err := b.Get(ctx, "uae", func(context.Context) (Feed, error) {
		t.Error("replica b fetched although a had stored the value")
		return Feed{}, nil
	})
	if err != nil || !meta.Hit || got.Query != want.Query || len(got.Items) != 2 || got.Items[1] != "two" {
		t.Fatalf("got %+v %+v %v", got, meta, err)
	}
	ttl, err := srv.NewClient(t).PTTL(ctx, "gnr:feed:uae").Result()
	if err != nil || ttl <= DefaultStaleFor || ttl > DefaultStaleFor+time.Minute {
		t.Fatalf("PTTL %v (%v), want ttl+staleFor", ttl, err)
	}
}

func TestRedisTroubleFallsThrough(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := redistest.StartServer(t)
	rdb := srv.NewClient(t)
	var reported []error
	var mu sync.Mutex
	onErr := func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }
	c := New[Feed](time.Minute, WithRedis(rdb, "c:"), WithErrorHandler(onErr))

	// An undecodable value is a miss, reported.
	if err := rdb.Set(ctx, "c:k", "not json", 0).Err(); err != nil {
		t.Fatal(err)
	}
	v, meta, err := c.Get(ctx, "k", func(context.Context) (Feed, error) { return Feed{Query: "fresh"}, nil })
	if err != nil || meta.Hit || v.Query != "fresh" || len(reported) == 0 {
		t.Fatalf("undecodable: %+v %+v %v, reported %v", v, meta, err, reported)
	}

	// Redis down: Get still answers through fetch; Set/Invalidate return errors.
	down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})
	defer down.Close()
	c = New[Feed](time.Minute, WithRedis(down, "c:"), WithErrorHandler(onErr))
	before := len(reported)
	v, _, err = c.Get(ctx, "k", func(context.Context) (Feed, error) { return Feed{Query: "direct"}, nil })
	if err != nil || v.Query != "direct" || len(reported) <= before {
		t.Fatalf("Redis down: %+v %v, reported %d new errors", v, err, len(reported)-before)
	}
	if _, _, err := c.Get(ctx, "k", func(context.Context) (Feed, error) { return Feed{}, errUpstream }); !errors.Is(err, errUpstream) {
		t.Fatalf("Redis down and upstream down: %v", err)
	}
	if err := c.Set(ctx, "k", Feed{}); err == nil {
		t.Fatal("Set with Redis down returned nil")
	}
	if err := c.Invalidate(ctx, "k"); err == nil {
		t.Fatal("Invalidate with Redis down returned nil")
	}
}

func TestNewRejectsNonsense(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(){
		"ttl 0":     func() { New[int](0) },
		"nil redis": func() { WithRedis(nil, "p") },
		"nil clock": func() { New[int](time.Second, WithClock(nil)) },
		"negative":  func() { New[int](-time.Second) },
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

func ExampleCache_Get() {
	feeds := New[Feed](15 * time.Minute)
	fetch := func(ctx context.Context) (Feed, error) { return Feed{Query: "uae"}, nil }
	ctx := context.Background()
	_, first, _ := feeds.Get(ctx, "uae", fetch)
	_, second, _ := feeds.Get(ctx, "uae", fetch)
	fmt.Println(first.Hit, second.Hit)
	// Output: false true
}
