package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// connectRedis opens MCPFLEET_REDIS_URL and checks it answers, so a wrong URL
// fails at start-up with its reason instead of on the first limited call.
// Errors name the address, never the URL (it may carry a password).
func connectRedis(ctx context.Context, url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("MCPFLEET_REDIS_URL is not a redis:// or rediss:// URL")
	}
	rdb := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, fmt.Errorf("cannot reach Redis at %s (MCPFLEET_REDIS_URL): %v", opt.Addr, err)
	}
	return rdb, nil
}
