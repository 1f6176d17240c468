package ratelimit

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// Decision is the answer to one Allow call.
type Decision struct {
	// Allowed reports whether the call was admitted (and counted).
	Allowed bool
	// Limit is the policy's size: calls per window for a sliding window, the
	// burst for a token bucket. For All it is the Limit of the limiter that
	// decided (the one that denied longest, or the one with least Remaining).
	Limit int
	// Remaining is how many more calls would be admitted right now.
	Remaining int
	// RetryAfter is how long to wait before a call can be admitted; 0 when
	// Allowed. It is exact for the state at decision time: other callers may
	// take the freed slot first.
	RetryAfter time.Duration
}

// Limiter decides whether a call for key may proceed now.
//
// Limiters returned by this package are safe for concurrent use.
type Limiter interface {
	Allow(ctx context.Context, key string) (Decision, error)
}

// Clock tells the time. Tests pass a fake one with WithClock.
type Clock = clock.Clock

// Option configures a limiter or window claims.
type Option func(*options)

type options struct {
	clock       Clock
	clientClock bool // WithClock was given: Redis scripts use it instead of TIME
	rdb         redis.Scripter
	db          *store.DB
	prefix      string
}

// WithClock sets the clock (default: time.Now). With a Redis backend the
// scripts then use this clock instead of the server's TIME; see the package
// documentation for why that is for tests only.
func WithClock(c Clock) Option {
	return func(o *options) { o.clock, o.clientClock = c, true }
}

// WithRedis keeps the state in Redis under keys that start with prefix (e.g.
// "rl:ws:"), so every process using the same server and prefix shares one
// limit. client is typically a *redis.Client.
func WithRedis(client redis.Scripter, prefix string) Option {
	if client == nil {
		panic("ratelimit: WithRedis(nil, ...)")
	}
	return func(o *options) { o.rdb, o.prefix = client, prefix }
}

func buildOptions(opts []Option) options {
	o := options{clock: clock.System{}}
	for _, opt := range opts {
		opt(&o)
	}
	if o.clock == nil {
		panic("ratelimit: WithClock(nil)")
	}
	if o.rdb != nil && o.db != nil {
		panic("ratelimit: WithRedis and WithStore together")
	}
	return o
}

// limiterIDs orders limiters so that All locks memory shards in one global
// order and can never deadlock.
var limiterIDs atomic.Uint64

// limiter is the one concrete Limiter: a policy on a backend.
type limiter struct {
	id  uint64
	pol policy
	o   options
	mem *memStore // nil with Redis or the store
}

// sameBackend reports whether l and m keep their state in one place, so one
// script or transaction can decide both.
func (l *limiter) sameBackend(m *limiter) bool { return l.o.rdb == m.o.rdb && l.o.db == m.o.db }

func newLimiter(pol policy, opts []Option) *limiter {
	o := buildOptions(opts)
	l := &limiter{id: limiterIDs.Add(1), pol: pol, o: o}
	if o.rdb == nil && o.db == nil {
		l.mem = newMemStore(o.clock, pol)
	}
	return l
}

// NewSlidingWindow returns an exact sliding-log limiter that admits at most
// limit calls per key in any interval of length window.
func NewSlidingWindow(limit int, window time.Duration, opts ...Option) Limiter {
	if limit <= 0 || window <= 0 {
		panic(fmt.Sprintf("ratelimit: NewSlidingWindow(%d, %v): limit and window must be > 0", limit, window))
	}
	return newLimiter(slidingPolicy{size: limit, window: window}, opts)
}

// NewTokenBucket returns a GCRA limiter: a sustained rate of rate calls per
// per for each key, with bursts of up to burst calls.
func NewTokenBucket(rate int, per time.Duration, burst int, opts ...Option) Limiter {
	if rate <= 0 || per <= 0 || burst <= 0 {
		panic(fmt.Sprintf("ratelimit: NewTokenBucket(%d, %v, %d): rate, per and burst must be > 0", rate, per, burst))
	}
	return newLimiter(newGCRAPolicy(rate, per, burst), opts)
}

// Allow decides one call for key.
func (l *limiter) Allow(ctx context.Context, key string) (Decision, error) {
	if l.mem != nil {
		return l.mem.allow(key), nil
	}
	return allowShared(ctx, l.o, []*limiter{l}, key)
}

// sharedVerdicts decides key for parts, which share one Redis or one store.
func sharedVerdicts(ctx context.Context, o options, parts []*limiter, key string) ([]verdict, error) {
	if o.db != nil {
		return allowStoreVerdicts(ctx, o, parts, key)
	}
	return allowRedisVerdicts(ctx, o, parts, key)
}

func allowShared(ctx context.Context, o options, parts []*limiter, key string) (Decision, error) {
	vs, err := sharedVerdicts(ctx, o, parts, key)
	if err != nil {
		return Decision{}, err
	}
	pols := make([]policy, len(parts))
	for i, p := range parts {
		pols[i] = p.pol
	}
	return decide(pols, vs), nil
}
