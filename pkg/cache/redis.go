package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisStore keeps entries as JSON {"v": value, "t": fetchedAt} under
// prefix + key, expiring keep (ttl + staleFor) after FetchedAt.
type redisStore[V any] struct {
	rdb    redis.Cmdable
	prefix string
	keep   time.Duration
}

func (r *redisStore[V]) get(ctx context.Context, key string, now time.Time) (entry[V], bool, error) {
	b, err := r.rdb.Get(ctx, r.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return entry[V]{}, false, nil
	}
	if err != nil {
		return entry[V]{}, false, fmt.Errorf("cache: redis get: %w", err)
	}
	var e entry[V]
	if err := json.Unmarshal(b, &e); err != nil {
		return entry[V]{}, false, fmt.Errorf("cache: decoding %s%s: %w", r.prefix, key, err)
	}
	if now.Sub(e.FetchedAt) >= r.keep { // dead by our clock, though Redis has not expired it yet
		return entry[V]{}, false, nil
	}
	return e, true, nil
}

func (r *redisStore[V]) set(ctx context.Context, key string, e entry[V], now time.Time) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("cache: encoding value: %w", err)
	}
	ttl := max(e.FetchedAt.Add(r.keep).Sub(now), time.Millisecond)
	if err := r.rdb.Set(ctx, r.prefix+key, b, ttl).Err(); err != nil {
		return fmt.Errorf("cache: redis set: %w", err)
	}
	return nil
}

func (r *redisStore[V]) del(ctx context.Context, key string) error {
	if err := r.rdb.Del(ctx, r.prefix+key).Err(); err != nil {
		return fmt.Errorf("cache: redis del: %w", err)
	}
	return nil
}
