// Package cache is a TTL cache for upstream answers that serves a stale copy
// when the upstream fails.
//
//	feeds := cache.New[Feed](15*time.Minute, cache.WithRedis(rdb, "gnr:feed:"))
//	feed, meta, err := feeds.Get(ctx, queryKey, func(ctx context.Context) (Feed, error) {
//		return client.Fetch(ctx, query)
//	})
//
// # Semantics of Get
//
//   - Fresh hit (age < ttl): the cached value, no fetch. Meta.Hit.
//   - Miss or expired (age ≥ ttl): fetch. Concurrent Gets of one key share a
//     single fetch (singleflight), and a fetch re-reads the cache first, so
//     a value stored meanwhile (by another replica, too) is used as is.
//     On success the value is stored with FetchedAt = now.
//   - Fetch error and a copy younger than ttl + staleFor: that copy, with
//     Meta.Stale and Meta.Err (the upstream error), and a nil error. The
//     caller decides how to tell the user the data is old (Meta.Age).
//   - Fetch error and no usable copy: the fetch's error, unchanged.
//
// Refresh is Get for a "forceRefresh" argument: it fetches even when the
// copy is fresh, and still falls back to the stale copy when the fetch fails.
//
// The fetch runs with the deadline and values of the caller that started it,
// but not its cancellation: a caller that gives up (its context ends) stops
// waiting, gets the stale copy if there is one or its context's error, and
// leaves the fetch running for the others. Fetch functions therefore need
// their own timeouts when callers have no deadline. A panicking fetch is
// turned into an error.
//
// # Backends
//
// By default values live in process memory, shared by reference: treat
// returned values as read-only. The memory backend holds at most
// WithMaxEntries entries (least recently used first out), and drops entries
// older than ttl + staleFor lazily.
//
// WithRedis(client, prefix) stores values JSON-encoded under prefix + key,
// with a PEXPIRE of ttl + staleFor from FetchedAt, so replicas share one copy
// (V must round-trip through encoding/json). FetchedAt comes from the
// writer's clock; replicas' clocks should agree to within a small fraction
// of ttl. When Redis fails, Get still works, as an uncached call through to
// fetch (no stale copy is available then); the Redis error goes to the
// WithErrorHandler function. Set and Invalidate return Redis errors.
package cache
