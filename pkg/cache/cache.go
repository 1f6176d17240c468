package cache

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/singleflight"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	embedded "github.com/mcpfleet/mcpfleet/pkg/store"
)

// DefaultStaleFor is how long after expiry a copy may still be served when
// the upstream fails, unless WithStaleFor says otherwise.
const DefaultStaleFor = 7 * 24 * time.Hour

// DefaultMaxEntries bounds the memory backend unless WithMaxEntries says
// otherwise.
const DefaultMaxEntries = 10000

// Clock tells the time. Tests pass a fake one with WithClock.
type Clock = clock.Clock

// Meta describes where a value returned by Get came from.
type Meta struct {
	// Hit: the value came from the cache (fresh, or stale after a failed
	// fetch), not from a fetch made for this call.
	Hit bool
	// Stale: the fetch failed and the cached copy was served instead (an
	// expired one for Get; for Refresh possibly one still fresh).
	Stale bool
	// FetchedAt is when the value was fetched from the upstream.
	FetchedAt time.Time
	// Age is now − FetchedAt.
	Age time.Duration
	// Err is the fetch error when Stale, else nil.
	Err error
}

// Option configures a Cache.
type Option func(*options)

type options struct {
	clock      Clock
	rdb        redis.Cmdable
	db         *embedded.DB
	prefix     string
	staleFor   time.Duration
	maxEntries int
	onError    func(error)
}

// WithClock sets the clock (default: time.Now).
func WithClock(c Clock) Option { return func(o *options) { o.clock = c } }

// WithRedis stores values JSON-encoded in Redis under prefix + key.
func WithRedis(client redis.Cmdable, prefix string) Option {
	if client == nil {
		panic("cache: WithRedis(nil, ...)")
	}
	return func(o *options) { o.rdb, o.prefix = client, prefix }
}

// WithStaleFor sets how long after expiry a copy may be served when the
// fetch fails (default DefaultStaleFor; 0 never serves stale copies).
func WithStaleFor(d time.Duration) Option { return func(o *options) { o.staleFor = max(d, 0) } }

// WithMaxEntries bounds the memory backend to n entries, evicting the least
// recently used (default DefaultMaxEntries; n ≤ 0: no bound).
func WithMaxEntries(n int) Option { return func(o *options) { o.maxEntries = n } }

// WithErrorHandler receives backend errors that Get absorbs (Redis down,
// undecodable values), e.g. to log them. Default: ignored.
func WithErrorHandler(f func(error)) Option { return func(o *options) { o.onError = f } }

// Cache is a TTL cache of V keyed by string. It is safe for concurrent use.
type Cache[V any] struct {
	ttl, staleFor time.Duration
	clock         Clock
	store         store[V]
	onError       func(error)
	flights       singleflight.Group
}

// entry is a stored value; the JSON names are the Redis format.
type entry[V any] struct {
	Value     V         `json:"v"`
	FetchedAt time.Time `json:"t"`
}

type store[V any] interface {
	get(ctx context.Context, key string, now time.Time) (entry[V], bool, error)
	set(ctx context.Context, key string, e entry[V], now time.Time) error
	del(ctx context.Context, key string) error
}

// New returns a cache whose values are fresh for ttl.
func New[V any](ttl time.Duration, opts ...Option) *Cache[V] {
	if ttl <= 0 {
		panic(fmt.Sprintf("cache: New(%v): ttl must be > 0", ttl))
	}
	o := options{clock: clock.System{}, staleFor: DefaultStaleFor, maxEntries: DefaultMaxEntries}
	for _, opt := range opts {
		opt(&o)
	}
	if o.clock == nil {
		panic("cache: WithClock(nil)")
	}
	if o.rdb != nil && o.db != nil {
		panic("cache: WithRedis and WithStore together")
	}
	c := &Cache[V]{ttl: ttl, staleFor: o.staleFor, clock: o.clock, onError: o.onError}
	switch {
	case o.rdb != nil:
		c.store = &redisStore[V]{rdb: o.rdb, prefix: o.prefix, keep: ttl + o.staleFor}
	case o.db != nil:
		c.store = newStoreStore[V](o.db, o.prefix, ttl+o.staleFor, o.maxEntries)
	default:
		c.store = newMemStore[V](o.maxEntries, ttl+o.staleFor)
	}
	return c
}

// Get returns key's value: the fresh cached copy, or fetch's result, or,
// when fetch fails, a stale copy (see the package documentation).
func (c *Cache[V]) Get(ctx context.Context, key string, fetch func(ctx context.Context) (V, error)) (V, Meta, error) {
	return c.get(ctx, key, fetch, false)
}

// Refresh is Get that fetches even when the cached copy is fresh; when the
// fetch fails it still serves a stale copy.
func (c *Cache[V]) Refresh(ctx context.Context, key string, fetch func(ctx context.Context) (V, error)) (V, Meta, error) {
	return c.get(ctx, key, fetch, true)
}

// Set stores v for key as fetched now.
func (c *Cache[V]) Set(ctx context.Context, key string, v V) error {
	now := c.clock.Now()
	return c.store.set(ctx, key, entry[V]{Value: v, FetchedAt: now}, now)
}

// Invalidate removes key's copy, fresh or stale.
func (c *Cache[V]) Invalidate(ctx context.Context, key string) error {
	return c.store.del(ctx, key)
}

// outcome is what a flight hands to every caller sharing it.
type outcome[V any] struct {
	e   entry[V]
	hit bool // found fresh in the cache by the flight's re-check
}

func (c *Cache[V]) get(ctx context.Context, key string, fetch func(context.Context) (V, error), force bool) (V, Meta, error) {
	now := c.clock.Now()
	old, hasOld := c.load(ctx, key, now)
	if hasOld && !force && now.Sub(old.FetchedAt) < c.ttl {
		return old.Value, c.meta(old, now, true), nil
	}

	flight := "g" + key // a forced refresh must not join a flight that may answer from the cache
	if force {
		flight = "r" + key
	}
	ch := c.flights.DoChan(flight, func() (any, error) {
		return c.fill(ctx, key, fetch, force)
	})
	var err error
	select {
	case r := <-ch:
		if r.Err == nil {
			out := r.Val.(outcome[V])
			return out.e.Value, c.meta(out.e, c.clock.Now(), out.hit), nil
		}
		err = r.Err
	case <-ctx.Done():
		err = ctx.Err()
	}
	if now := c.clock.Now(); hasOld && now.Sub(old.FetchedAt) < c.ttl+c.staleFor {
		m := c.meta(old, now, true)
		m.Stale, m.Err = true, err
		return old.Value, m, nil
	}
	var zero V
	return zero, Meta{}, err
}

// fill runs in a flight: re-check the cache, else fetch and store.
func (c *Cache[V]) fill(ctx context.Context, key string, fetch func(context.Context) (V, error), force bool) (outcome[V], error) {
	fctx := context.WithoutCancel(ctx)
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		fctx, cancel = context.WithDeadline(fctx, dl)
		defer cancel()
	}
	if !force {
		now := c.clock.Now()
		if e, ok := c.load(fctx, key, now); ok && now.Sub(e.FetchedAt) < c.ttl {
			return outcome[V]{e: e, hit: true}, nil
		}
	}
	v, err := safeFetch(fctx, fetch)
	if err != nil {
		return outcome[V]{}, err
	}
	now := c.clock.Now()
	e := entry[V]{Value: v, FetchedAt: now}
	if err := c.store.set(fctx, key, e, now); err != nil {
		c.report(err)
	}
	return outcome[V]{e: e}, nil
}

func safeFetch[V any](ctx context.Context, fetch func(context.Context) (V, error)) (v V, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cache: fetch panicked: %v", r)
		}
	}()
	return fetch(ctx)
}

// load reads key's copy, treating backend errors as a miss.
func (c *Cache[V]) load(ctx context.Context, key string, now time.Time) (entry[V], bool) {
	e, ok, err := c.store.get(ctx, key, now)
	if err != nil {
		c.report(err)
		return entry[V]{}, false
	}
	return e, ok
}

func (c *Cache[V]) report(err error) {
	if c.onError != nil {
		c.onError(err)
	}
}

func (c *Cache[V]) meta(e entry[V], now time.Time, hit bool) Meta {
	return Meta{Hit: hit, FetchedAt: e.FetchedAt, Age: max(now.Sub(e.FetchedAt), 0)}
}
