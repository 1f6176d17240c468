package tools

import (
	"context"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
)

// ScripTTL is how long search_scrip answers from its cache. Instruments (trading
// symbol, token, lot and tick size) come from the scrip masters Shoonya
// publishes once a day (ShoonyaApi-py README "scripmasters"); an agent searches the
// same names again and again while it quotes, charts and orders, and each search
// is otherwise a Noren request counted against the account's rate limit. Ten
// minutes keeps a day's new listings visible soon after they appear.
const ScripTTL = 10 * time.Minute

// ScripCachePrefix starts the Redis keys of the shared search cache.
const ScripCachePrefix = "shoonya:cache:scrip:"

// NewScripCache is search_scrip's cache: per bearer user, exchange and search
// text (never per MCP session); with rdb in Redis, shared by every replica.
// A failed search is never cached or answered with an old copy.
func NewScripCache(rdb redis.Cmdable, opts ...cache.Option) *cache.Cache[SearchOut] {
	opts = append(opts, cache.WithStaleFor(0), cache.WithMaxEntries(4096))
	if rdb != nil {
		opts = append(opts, cache.WithRedis(rdb, ScripCachePrefix))
	}
	return cache.New[SearchOut](ScripTTL, opts...)
}

// scripKey is user, exchange, text; the separator cannot occur in an
// exchange (an enum), so the text after the user's and exchange's parts is
// never mistaken for another user's key.
func scripKey(ctx context.Context, exchange, text string) string {
	return strings.Join([]string{user(ctx), exchange, text}, "|")
}

// scrips returns the search cache, a process-local one unless Register set one.
func (d *Deps) scrips() *cache.Cache[SearchOut] {
	d.scripOnce.Do(func() {
		if d.Scrips == nil {
			d.Scrips = NewScripCache(nil)
		}
	})
	return d.Scrips
}
