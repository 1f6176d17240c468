package serve

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// touchCounter counts session lookups a client sends to Redis; around, when
// set, runs each single command instead (to stall or fail it).
type touchCounter struct {
	n      atomic.Int64
	around atomic.Pointer[func(cmd redis.Cmder, next func() error) error]
}

func (h *touchCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *touchCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.count(cmd)
		if f := h.around.Load(); f != nil {
			return (*f)(cmd, func() error { return next(ctx, cmd) })
		}
		return next(ctx, cmd)
	}
}

func isScript(cmd redis.Cmder, s *redis.Script) bool {
	a := cmd.Args()
	return len(a) > 1 && a[1] == s.Hash()
}
func (h *touchCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			h.count(c)
		}
		return next(ctx, cmds)
	}
}
func (h *touchCounter) count(cmd redis.Cmder) {
	if isScript(cmd, touchScript) {
		h.n.Add(1)
	}
}

// replica is one process's session store on a shared Redis.
type replica struct {
	s       *sessions
	touches *touchCounter
}

func newReplica(t *testing.T, srv *redistest.Server, ttl time.Duration) *replica {
	t.Helper()
	rdb := srv.NewClient(t)
	h := &touchCounter{}
	rdb.AddHook(h)
	return &replica{s: newSharedSessions(rdb, ttl, 1000, 1000, zerolog.Nop()), touches: h}
}

// hold marks id as held by this replica (as initialize or adoption does).
func (r *replica) hold(id string) {
	r.s.mu.Lock()
	r.s.local[id] = struct{}{}
	r.s.mu.Unlock()
}

func (r *replica) live(t *testing.T, id string) bool {
	t.Helper()
	_, _, ok, err := r.s.lookup(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// warm looks id up until this replica answers it from memory.
func (r *replica) warm(t *testing.T, id string) {
	t.Helper()
	waitFor(t, func() bool {
		r.live(t, id)
		_, ok := r.s.shared.memo.get(id)
		return ok
	})
}

func (r *replica) end(t *testing.T, id string) time.Duration {
	t.Helper()
	start := time.Now()
	if _, err := (sessionIDs{s: r.s, request: true}).Terminate(id); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

func reserveID(t *testing.T, r *replica, user string) string {
	t.Helper()
	id, err := r.s.shared.reserve(context.Background(), user, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// warmOne: a replica and a session it answers from memory.
func warmOne(t *testing.T, ttl time.Duration) (*replica, string) {
	t.Helper()
	b := newReplica(t, redistest.StartServer(t), ttl)
	id := reserveID(t, b, "alice")
	b.hold(id)
	b.warm(t, id)
	return b, id
}

// warmPair: replicas a and b, and two sessions that b answers from memory.
func warmPair(t *testing.T) (a, b *replica, id, other string) {
	t.Helper()
	srv := redistest.StartServer(t)
	a, b = newReplica(t, srv, time.Hour), newReplica(t, srv, time.Hour)
	id, other = reserveID(t, a, "alice"), reserveID(t, a, "alice")
	for _, x := range []string{id, other} {
		b.hold(x)
		b.warm(t, x)
	}
	return a, b, id, other
}

// TestMemoAnswersWithoutRedis: once warm, a replica answers lookups of the
// sessions it holds without asking Redis, with the right owner; one it does
// not hold (it would adopt it) still asks.
func TestMemoAnswersWithoutRedis(t *testing.T) {
	b, id := warmOne(t, time.Hour)
	before := b.touches.n.Load()
	for range 100 {
		owner, _, ok, err := b.s.lookup(context.Background(), id)
		if !ok || err != nil || owner != "alice" {
			t.Fatalf("memo answered %q %v %v", owner, ok, err)
		}
	}
	if n := b.touches.n.Load() - before; n != 0 {
		t.Fatalf("%d lookups of 100 went to Redis", n)
	}
	foreign := reserveID(t, b, "bob")
	for range 3 {
		if !b.live(t, foreign) {
			t.Fatal("a live foreign session was not found")
		}
	}
	if n := b.touches.n.Load() - before; n != 3 {
		t.Fatalf("a session this replica does not hold asked Redis %d times of 3", n)
	}
}

// TestMemoDeleteIsSeenEverywhere: after a DELETE answered on one replica,
// the very next lookup on every other replica is a miss, also while those
// replicas are answering the session from memory at full speed.
func TestMemoDeleteIsSeenEverywhere(t *testing.T) {
	srv := redistest.StartServer(t)
	a, b, c := newReplica(t, srv, time.Hour), newReplica(t, srv, time.Hour), newReplica(t, srv, time.Hour)
	for round := range 30 {
		id := reserveID(t, a, "alice")
		for _, r := range []*replica{a, b, c} {
			r.hold(id)
			r.warm(t, id)
		}
		var ended atomic.Bool
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, r := range []*replica{b, c} {
			for range 4 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						after := ended.Load()
						_, _, ok, err := r.s.lookup(context.Background(), id)
						if err != nil || (ok && after) {
							t.Errorf("round %d: a lookup begun after the DELETE answered found the session (err %v)", round, err)
							return
						}
					}
				})
			}
		}
		time.Sleep(2 * time.Millisecond)
		took := a.end(t, id)
		ended.Store(true)
		for _, r := range []*replica{b, c} {
			if r.live(t, id) {
				t.Fatalf("round %d: the next lookup after the DELETE found the session", round)
			}
		}
		close(stop)
		wg.Wait()
		if took > ackGrace {
			t.Fatalf("round %d: the DELETE waited %v with every replica answering", round, took)
		}
	}
}

// TestMemoKeepsNoAnswerReadBeforeADelete: a lookup that read a live
// session from Redis before a DELETE, and answers after it, is not memoised.
func TestMemoKeepsNoAnswerReadBeforeADelete(t *testing.T) {
	srv := redistest.StartServer(t)
	a, b := newReplica(t, srv, time.Hour), newReplica(t, srv, time.Hour)
	id, other := reserveID(t, a, "alice"), reserveID(t, a, "alice")
	b.hold(id)
	b.hold(other)
	b.warm(t, other) // the memo serves; id itself not yet memoised
	read, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stall := func(cmd redis.Cmder, next func() error) error {
		err := next()
		if isScript(cmd, touchScript) {
			once.Do(func() { close(read); <-release })
		}
		return err
	}
	b.touches.around.Store(&stall)
	done := make(chan bool)
	go func() {
		_, _, ok, _ := b.s.lookup(context.Background(), id)
		done <- ok
	}()
	<-read
	a.end(t, id)
	close(release)
	if !<-done {
		t.Fatal("the stalled lookup read the session before the DELETE: it was live then")
	}
	if b.live(t, id) {
		t.Fatal("an answer read before the DELETE was memoised and served after it")
	}
}

// TestMemoStopsWhenRenewalsFail: a replica that cannot renew its lease
// (Redis not answering it) stops answering from memory before Redis counts
// the lease as ended.
func TestMemoStopsWhenRenewalsFail(t *testing.T) {
	b, id := warmOne(t, time.Hour)
	fail := func(cmd redis.Cmder, next func() error) error {
		if isScript(cmd, renewScript) {
			return fmt.Errorf("refused by the test")
		}
		return next()
	}
	b.touches.around.Store(&fail)
	start := time.Now()
	waitFor(t, func() bool { _, ok := b.s.shared.memo.get(id); return !ok })
	if d := time.Since(start); d > leaseTTL-leaseMargin+100*time.Millisecond {
		t.Fatalf("answered from memory for %v without a lease", d)
	}
}

// TestMemoFencesASilentHolder: a replica that does not acknowledge an ended
// session (its subscription stalled) is fenced: the DELETE waits out its
// lease, after which it no longer answers from memory, and once its messages
// flow again it registers anew and memoises again.
func TestMemoFencesASilentHolder(t *testing.T) {
	a, b, id, other := warmPair(t)
	release := make(chan struct{})
	b.s.shared.memo.beforeEvict = func() { <-release }
	took := a.end(t, id)
	if took < ackGrace {
		t.Fatalf("the DELETE returned after %v, before the grace for a silent replica", took)
	}
	if took > endedWait {
		t.Fatalf("the DELETE waited %v, past its bound %v", took, endedWait)
	}
	if _, ok := b.s.shared.memo.get(id); ok {
		t.Fatal("the fenced replica still answers the ended session from memory")
	}
	if _, ok := b.s.shared.memo.get(other); ok {
		t.Fatal("the fenced replica still answers from memory at all")
	}
	close(release)
	if b.live(t, id) {
		t.Fatal("the ended session is live")
	}
	b.warm(t, other) // registered again
}

// TestMemoLeaves: a replica that stopped serving leaves at once: it answers
// nothing from memory, and a DELETE on another replica does not wait for it
// even though it will never acknowledge.
func TestMemoLeaves(t *testing.T) {
	a, b, id, other := warmPair(t)
	b.s.shared.memo.beforeEvict = func() { select {} }
	b.s.leave()
	if _, ok := b.s.shared.memo.get(other); ok {
		t.Fatal("a replica that left still answers from memory")
	}
	if took := a.end(t, id); took >= ackGrace {
		t.Fatalf("the DELETE waited %v for a replica that left", took)
	}
	time.Sleep(2 * leaseRenew) // the renewer must not register it again
	if n := b.s.shared.rdb.ZCard(context.Background(), b.s.shared.memo.holdersKey).Val(); n != 0 {
		t.Fatalf("%d holders registered after the only replica left", n)
	}
}

// TestMemoEndsWithTheSubscription: when the replica's subscription is cut,
// it stops answering from memory; a DELETE meanwhile is a miss on it; it
// subscribes and registers again and memoises again.
func TestMemoEndsWithTheSubscription(t *testing.T) {
	a, b, id, other := warmPair(t)
	ctx := context.Background()
	if err := a.s.shared.rdb.Do(ctx, "CLIENT", "KILL", "TYPE", "pubsub").Err(); err != nil {
		t.Fatal(err)
	}
	a.end(t, id)
	if b.live(t, id) {
		t.Fatal("the ended session is live on the replica whose subscription was cut")
	}
	b.warm(t, other)
}

// TestMemoLostRegistration: a Redis that lost the holders (a restart, a
// flush) refuses the renewal, and the replica stops answering from memory
// within a renewal period, so sessions Redis lost are not served on.
func TestMemoLostRegistration(t *testing.T) {
	b, id := warmOne(t, time.Hour)
	start := time.Now()
	if err := b.s.shared.rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return !b.live(t, id) })
	if d := time.Since(start); d > leaseTTL {
		t.Fatalf("a lost session was served for %v", d)
	}
}

// TestMemoKeepsTheSessionAlive: a session used only through one replica's
// memo does not expire in Redis: the memo asks again, refreshing the TTL.
func TestMemoKeepsTheSessionAlive(t *testing.T) {
	ttl := time.Second
	b, id := warmOne(t, ttl)
	for end := time.Now().Add(3 * ttl); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if !b.live(t, id) {
			t.Fatal("a session in use expired")
		}
	}
	if n, err := b.s.shared.rdb.Exists(context.Background(), sessionHashKey(id)).Result(); n != 1 || err != nil {
		t.Fatalf("the session in use is gone from Redis: %d %v", n, err)
	}
}

// TestMemoStopsWithItsClient: the memo's goroutines end when the Redis
// client is closed.
func TestMemoStopsWithItsClient(t *testing.T) {
	srv := redistest.StartServer(t)
	before := runtime.NumGoroutine()
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), DisableIdentity: true})
	s := newSharedSessions(rdb, time.Hour, 10, 10, zerolog.Nop())
	r := &replica{s: s, touches: &touchCounter{}}
	id := reserveID(t, r, "alice")
	r.hold(id)
	r.warm(t, id)
	_ = rdb.Close()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
}

// TestMemoNames: the ended channel is scoped to the database (pub/sub is
// not), and entries are kept for a twentieth of the idle TTL.
func TestMemoNames(t *testing.T) {
	m := newSessionMemo(redis.NewClient(&redis.Options{DB: 3}), time.Minute, zerolog.Nop())
	if got := fmt.Sprint(m.channel, " ", m.fresh); got != "mcpfleet:session:ended:db3 3s" {
		t.Fatal(got)
	}
}
