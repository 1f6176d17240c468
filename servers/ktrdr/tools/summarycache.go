package tools

import (
	"context"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/identity"
)

// SummaryTTL is how long get_data_summary answers from its cache. The summary
// (bar count, newest bar) changes only when a data load finishes, which takes
// seconds to hours; an agent checks it repeatedly while planning a training,
// and each check is otherwise a backend request. trigger_data_loading drops
// the caller's copy for that symbol and timeframe; a finished load (ours or
// another client's) shows within the TTL.
const SummaryTTL = 15 * time.Second

// SummaryCachePrefix starts the Redis keys of the shared summary cache.
const SummaryCachePrefix = "ktrdr:cache:summary:"

// summaryCache keeps get_data_summary answers per bearer user, symbol and
// timeframe (never per MCP session). A failed backend read is never hidden by
// an old copy: the cache serves no stale copies.
type summaryCache struct {
	c *cache.Cache[summaryOut]
}

func newSummaryCache(ttl time.Duration, rdb redis.Cmdable, opts ...cache.Option) *summaryCache {
	if ttl <= 0 {
		ttl = SummaryTTL
	}
	opts = append(opts, cache.WithStaleFor(0), cache.WithMaxEntries(4096))
	if rdb != nil {
		opts = append(opts, cache.WithRedis(rdb, SummaryCachePrefix))
	}
	return &summaryCache{c: cache.New[summaryOut](ttl, opts...)}
}

// summaryKey is user, symbol, timeframe; the separator cannot occur in a
// symbol (its schema pattern) or a timeframe (an enum).
func summaryKey(ctx context.Context, symbol, timeframe string) string {
	return strings.Join([]string{identity.UserID(ctx), symbol, timeframe}, "|")
}

func (s *summaryCache) get(ctx context.Context, symbol, timeframe string, fetch func(context.Context) (summaryOut, error)) (summaryOut, error) {
	v, _, err := s.c.Get(ctx, summaryKey(ctx, symbol, timeframe), fetch)
	return v, err
}

// forget drops the caller's copy after it started a load of that data.
func (s *summaryCache) forget(ctx context.Context, symbol, timeframe string) {
	_ = s.c.Invalidate(ctx, summaryKey(ctx, symbol, timeframe))
}
