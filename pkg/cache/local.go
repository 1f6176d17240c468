package cache

import (
	"context"
	"time"
)

// WithLocalCopies keeps a copy of what this process read from or wrote to
// Redis in its own memory (bounded like the memory backend), so a fresh hit
// costs no Redis round trip and no JSON decode (for a cached read
// they were most of the call). Replicas still share one Redis copy: a fetch
// by one is found by the others once their local copy is no longer fresh.
//
// Only for caches whose keys are never invalidated across replicas: another
// replica's Invalidate (or Refresh) does not reach this process's copy, which
// is then served until its own ttl. Without WithRedis it changes nothing.
func WithLocalCopies() Option { return func(o *options) { o.local = true } }

// tieredStore is a memStore in front of a redisStore.
type tieredStore[V any] struct {
	near *memStore[V]
	far  store[V] // Redis or the embedded store
	ttl  time.Duration
}

// get answers from the local copy while it is fresh; otherwise it asks Redis
// (another replica may have fetched since) and keeps what it finds. When
// Redis has nothing usable, a local copy past its ttl is still returned: the
// cache may serve it as stale when the upstream fails.
func (t *tieredStore[V]) get(ctx context.Context, key string, now time.Time) (entry[V], bool, error) {
	e, ok, _ := t.near.get(ctx, key, now)
	if ok && now.Sub(e.FetchedAt) < t.ttl {
		return e, true, nil
	}
	fe, fok, err := t.far.get(ctx, key, now)
	if fok && (!ok || fe.FetchedAt.After(e.FetchedAt)) {
		_ = t.near.set(ctx, key, fe, now)
		return fe, true, err
	}
	if ok {
		return e, true, nil // Redis holds nothing newer (or is down): keep serving ours
	}
	return fe, fok, err
}

func (t *tieredStore[V]) set(ctx context.Context, key string, e entry[V], now time.Time) error {
	_ = t.near.set(ctx, key, e, now)
	return t.far.set(ctx, key, e, now)
}

func (t *tieredStore[V]) del(ctx context.Context, key string) error {
	_ = t.near.del(ctx, key)
	return t.far.del(ctx, key)
}
