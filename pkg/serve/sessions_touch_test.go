package serve

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// gateHook holds the first single command (the leader's lookup) until
// released, and counts pipelines and their commands.
type gateHook struct {
	release   chan struct{}
	once      sync.Once
	beforeAll func() // runs before the first pipeline
	pipeOnce  sync.Once
	mu        sync.Mutex
	pipelines []int
}

func (h *gateHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *gateHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if cmd.Name() == "evalsha" {
			h.once.Do(func() { <-h.release })
		}
		return next(ctx, cmd)
	}
}

func (h *gateHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.pipeOnce.Do(h.beforeAll)
		h.mu.Lock()
		h.pipelines = append(h.pipelines, len(cmds))
		h.mu.Unlock()
		return next(ctx, cmds)
	}
}

// TestTouchesShareARoundTrip: lookups that arrive while one is in flight go
// to Redis together in one pipeline, after it, each with its own answer (a
// live id of its owner, a terminated id, an unknown id), also when Redis has
// lost the script meanwhile; a lone lookup is sent alone.
func TestTouchesShareARoundTrip(t *testing.T) {
	rdb := redistest.Start(t)
	ctx := context.Background()
	s := newSharedSessions(rdb, time.Minute, 100, 100, zerolog.Nop())
	owners := map[string]string{}
	var ids []string
	for i := range 6 {
		user := fmt.Sprintf("user%d", i%3)
		id, err := s.shared.reserve(ctx, user, []byte(`{"i":`+fmt.Sprint(i)+`}`))
		if err != nil {
			t.Fatal(err)
		}
		owners[id] = user
		ids = append(ids, id)
	}
	if err := s.shared.terminate(ctx, ids[5]); err != nil {
		t.Fatal(err)
	}
	delete(owners, ids[5])
	ids = append(ids, sessionPrefix+"never-issued")

	other := redis.NewClient(&redis.Options{Addr: redistest.Addr(rdb)})
	defer other.Close()
	hook := &gateHook{release: make(chan struct{}), beforeAll: func() {
		// Redis loses its scripts (a restart): the pipeline's EVALSHAs fail.
		if err := other.ScriptFlush(ctx).Err(); err != nil {
			t.Error(err)
		}
	}}
	rdb.AddHook(hook)
	lead := make(chan *touchCall, 1)
	go func() {
		c := &touchCall{id: ids[0], wantInit: true}
		s.shared.touches.do(ctx, s.shared, c)
		lead <- c
	}()
	waitFor(t, func() bool {
		s.shared.touches.mu.Lock()
		defer s.shared.touches.mu.Unlock()
		return s.shared.touches.busy
	})
	calls := make([]*touchCall, len(ids)-1)
	var wg sync.WaitGroup
	for i, id := range ids[1:] {
		calls[i] = &touchCall{id: id, wantInit: i%2 == 0}
		wg.Go(func() { s.shared.touches.do(ctx, s.shared, calls[i]) })
	}
	waitFor(t, func() bool {
		s.shared.touches.mu.Lock()
		defer s.shared.touches.mu.Unlock()
		return len(s.shared.touches.waiting) == len(calls)
	})
	close(hook.release)
	wg.Wait()
	calls = append(calls, <-lead)
	for _, c := range calls {
		want, live := owners[c.id]
		if c.err != nil || c.ok != live || c.owner != want {
			t.Errorf("%s: owner %q ok %v err %v, want %q %v", c.id, c.owner, c.ok, c.err, want, live)
		}
		if live && c.wantInit != (c.init != nil) {
			t.Errorf("%s: init %q asked %v", c.id, c.init, c.wantInit)
		}
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if len(hook.pipelines) != 1 || hook.pipelines[0] != len(calls)-1 {
		t.Fatalf("pipelines %v, want one of the %d queued lookups", hook.pipelines, len(calls)-1)
	}
	if s.shared.touches.busy || len(s.shared.touches.waiting) != 0 {
		t.Fatal("the queue was not handed back")
	}
}

// TestTouchRefreshesWhenDue: a use refreshes the idle TTL only once a tenth
// of it has passed since the last refresh; in between it only reads.
func TestTouchRefreshesWhenDue(t *testing.T) {
	rdb := redistest.Start(t)
	ctx := context.Background()
	ttl := 2 * time.Second
	s := newSharedSessions(rdb, ttl, 10, 10, zerolog.Nop())
	id, err := s.shared.reserve(ctx, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	key := sessionHashKey(id)
	exp := func() string { return rdb.HGet(ctx, key, "exp").Val() }
	first := exp()
	if first == "" {
		t.Fatal("reserve recorded no expiry")
	}
	if _, _, ok, err := s.shared.touch(ctx, id, false); !ok || err != nil {
		t.Fatalf("touch: %v %v", ok, err)
	}
	if got := exp(); got != first {
		t.Fatalf("a use right after the refresh rewrote the expiry: %s → %s", first, got)
	}
	time.Sleep(ttl/10 + 50*time.Millisecond)
	if _, _, ok, err := s.shared.touch(ctx, id, false); !ok || err != nil {
		t.Fatalf("touch: %v %v", ok, err)
	}
	second := exp()
	if second == first {
		t.Fatal("a use after a tenth of the TTL did not refresh it")
	}
	score := rdb.ZScore(ctx, sessionsAllKey, key).Val()
	if fmt.Sprint(int64(score)) != second {
		t.Fatalf("the count's score %v is not the session's expiry %s", score, second)
	}
	if pttl := rdb.PTTL(ctx, key).Val(); pttl < ttl-ttl/10 {
		t.Fatalf("PTTL %v after a refresh, want about %v", pttl, ttl)
	}
	// A hash an older replica wrote has no expiry: the first use records one.
	rdb.HDel(ctx, key, "exp")
	if _, _, ok, _ := s.shared.touch(ctx, id, false); !ok || exp() == "" {
		t.Fatal("a session without an expiry field was not refreshed")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out waiting")
		}
	}
}

// TestTouchesUnderLoad: many concurrent lookups, each answered for its own
// id, and the queue is idle afterwards (run with -race).
func TestTouchesUnderLoad(t *testing.T) {
	rdb := redistest.Start(t)
	ctx := context.Background()
	s := newSharedSessions(rdb, time.Minute, 100, 100, zerolog.Nop())
	live, err := s.shared.reserve(ctx, "alice", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 40 {
				id, want := live, "alice"
				if (g+i)%3 == 0 {
					id, want = sessionPrefix+fmt.Sprint("gone-", g, i), ""
				}
				owner, _, ok, err := s.shared.touch(ctx, id, i%2 == 0)
				if err != nil || owner != want || ok != (want != "") {
					t.Errorf("%s: %q %v %v", id, owner, ok, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s.shared.touches.busy || len(s.shared.touches.waiting) != 0 {
		t.Fatal("the queue was not handed back")
	}
}

// BenchmarkTouch: session lookups from 16 goroutines (as HTTP C=16), sent
// one round trip each ("alone") or through the queue ("shared"); cpu-ns/op is
// this process's CPU per lookup (Redis' own CPU is not counted).
func BenchmarkTouch(b *testing.B) {
	rdb := redistest.Start(b)
	ctx := context.Background()
	s := newSharedSessions(rdb, time.Hour, 1000, 1000, zerolog.Nop())
	var ids []string
	for i := range 16 {
		id, err := s.shared.reserve(ctx, fmt.Sprint("user", i), []byte(`{}`))
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	alone := func(c *touchCall) {
		keys, args := s.shared.touchArgs(c)
		c.answer(touchScript.Run(ctx, rdb, keys, args...).StringSlice())
	}
	shared := func(c *touchCall) { s.shared.touches.do(ctx, s.shared, c) }
	for _, bc := range []struct {
		name string
		do   func(*touchCall)
	}{{"alone", alone}, {"shared", shared}} {
		b.Run(bc.name, func(b *testing.B) {
			var n atomic.Int64
			b.SetParallelism(8)
			cpu0 := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				id := ids[int(n.Add(1))%len(ids)]
				for pb.Next() {
					c := &touchCall{id: id}
					bc.do(c)
					if !c.ok {
						b.Errorf("lookup failed: %v", c.err)
						return
					}
				}
			})
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
