// Package quota is web-search's per-user spend limit: at most N searches in
// any window (an exact sliding log through pkg/ratelimit, not a token bucket,
// which would admit 2N−1 in the first window),
// in memory, in the server's state file (shared by every process on the
// host, kept across restarts) or shared by replicas through Redis, plus a
// read-only look at a user's state for get_search_capabilities.
package quota

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// Prefix starts the Redis keys: Prefix + "{" + user + "}" (pkg/ratelimit's
// documented key layout).
const Prefix = "websearch:rl:"

// Quota is safe for concurrent use.
type Quota struct {
	lim    ratelimit.Limiter
	limit  int
	window time.Duration
	clock  clock.Clock
	fake   bool // a test clock: Redis scripts get its time, not the server's
	rdb    redis.Scripter
	db     *store.DB

	mu     sync.Mutex
	mirror map[string][]time.Time // memory mode: admissions per user, for Peek
	takes  int
}

// Options configure New.
type Options struct {
	// Redis shares the limit between replicas; it wins over Store.
	Redis redis.Scripter
	// Store keeps the limit in the server's state file, shared by every
	// process on the host. Neither: memory (one process only).
	Store *store.DB
	// Clock replaces the real clock (tests).
	Clock clock.Clock
}

// New returns a quota of limit calls per window per user.
func New(limit int, window time.Duration, o Options) *Quota {
	q := &Quota{limit: limit, window: window, clock: o.Clock, rdb: o.Redis, mirror: map[string][]time.Time{}}
	if q.rdb == nil {
		q.db = o.Store
	}
	var opts []ratelimit.Option
	if q.clock != nil {
		q.fake = true
		opts = append(opts, ratelimit.WithClock(q.clock))
	} else {
		q.clock = clock.System{}
	}
	switch {
	case q.rdb != nil:
		opts = append(opts, ratelimit.WithRedis(q.rdb, Prefix))
	case q.db != nil:
		opts = append(opts, ratelimit.WithStore(q.db, Prefix))
	}
	q.lim = ratelimit.NewSlidingWindow(limit, window, opts...)
	return q
}

// Limit and Window are the policy.
func (q *Quota) Limit() int            { return q.limit }
func (q *Quota) Window() time.Duration { return q.window }

// Shared reports whether the limit lives in Redis (shared by replicas).
func (q *Quota) Shared() bool { return q.rdb != nil }

// Persisted reports whether the limit outlives the process (Redis or the
// state file).
func (q *Quota) Persisted() bool { return q.rdb != nil || q.db != nil }

// Take counts one call for user if the window has room. A refused call
// counts nothing. An error (Redis only) means nothing was decided: the caller
// must fail closed.
func (q *Quota) Take(ctx context.Context, user string) (ratelimit.Decision, error) {
	if q.Persisted() {
		return q.lim.Allow(ctx, user)
	}
	// Memory: decide and record under one lock so Peek sees what Allow saw.
	q.mu.Lock()
	defer q.mu.Unlock()
	d, err := q.lim.Allow(ctx, user)
	if err == nil && d.Allowed {
		now := q.clock.Now()
		q.mirror[user] = append(q.prune(q.mirror[user], now), now)
		if q.takes++; q.takes%sweepEvery == 0 {
			q.sweep(now)
		}
	}
	return d, err
}

// sweepEvery is how many admissions pass between sweeps of idle users.
const sweepEvery = 1024

// sweep drops users whose admissions all left the window, so the mirror
// holds only users active in the last window; the caller holds q.mu.
func (q *Quota) sweep(now time.Time) {
	for u, log := range q.mirror {
		if len(q.prune(log, now)) == 0 {
			delete(q.mirror, u)
		}
	}
}

// Status is a user's state without spending anything.
type Status struct {
	Remaining int
	// NextFree is when the oldest counted call leaves the window (a slot
	// frees up); zero when nothing is counted.
	NextFree time.Time
	// Now is the time the state was read at (Redis' clock when shared).
	Now time.Time
}

// Peek reads user's state.
func (q *Quota) Peek(ctx context.Context, user string) (Status, error) {
	if q.rdb != nil {
		return q.peekRedis(ctx, user)
	}
	if q.db != nil {
		log, now, err := ratelimit.StoredAdmissions(ctx, q.lim, user)
		if err != nil {
			return Status{}, fmt.Errorf("quota: %w", err)
		}
		st := Status{Remaining: max(q.limit-len(log), 0), Now: now}
		if len(log) > 0 {
			st.NextFree = log[0].Add(q.window)
		}
		return st, nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	log := q.prune(q.mirror[user], now)
	if len(log) == 0 {
		delete(q.mirror, user)
	} else {
		q.mirror[user] = log
	}
	st := Status{Remaining: max(q.limit-len(log), 0), Now: now}
	if len(log) > 0 {
		st.NextFree = log[0].Add(q.window)
	}
	return st, nil
}

// prune drops admissions that no longer count (t+window ≤ now, the same
// edge as pkg/ratelimit's sliding log).
func (q *Quota) prune(log []time.Time, now time.Time) []time.Time {
	i := 0
	for i < len(log) && !log[i].Add(q.window).After(now) {
		i++
	}
	return log[i:]
}

// peekLua counts the entries pkg/ratelimit's sliding-log script keeps for a
// key (a sorted set scored by admission time in µs; an entry counts while
// score > now − window) and returns {now, count, oldest score or -1}.
// Read-only: it writes nothing.
const peekLua = `
local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local from = '(' .. string.format('%.0f', now - tonumber(ARGV[2]))
local n = redis.call('ZCOUNT', KEYS[1], from, '+inf')
local first = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local oldest = -1
if first[2] then oldest = tonumber(first[2]) end
return {string.format('%.0f', now), n, string.format('%.0f', oldest)}
`

var peekScript = redis.NewScript(peekLua)

func (q *Quota) peekRedis(ctx context.Context, user string) (Status, error) {
	var now int64
	if q.fake {
		now = q.clock.Now().UnixMicro()
	}
	res, err := peekScript.Run(ctx, q.rdb, []string{Prefix + "{" + user + "}"}, now, q.window.Microseconds()).Slice()
	if err != nil {
		return Status{}, fmt.Errorf("quota: redis: %w", err)
	}
	if len(res) != 3 {
		return Status{}, fmt.Errorf("quota: redis: peek returned %d values", len(res))
	}
	num := func(v any) int64 {
		switch x := v.(type) {
		case int64:
			return x
		case string:
			var n int64
			_, _ = fmt.Sscan(x, &n)
			return n
		}
		return 0
	}
	nowUS, n, oldest := num(res[0]), int(num(res[1])), num(res[2])
	st := Status{Remaining: max(q.limit-n, 0), Now: time.UnixMicro(nowUS)}
	if oldest >= 0 && n > 0 {
		st.NextFree = time.UnixMicro(oldest).Add(q.window)
	}
	return st, nil
}
