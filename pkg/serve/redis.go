package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// ConnectRedis opens MCPFLEET_REDIS_URL and checks it answers, so a wrong URL
// fails at start-up with its reason instead of on the first limited call.
// Errors name the address, never the URL (it may carry a password). Tools
// that read a server's shared state from outside it (the token command, a
// drift probe) connect the same way.
func ConnectRedis(ctx context.Context, url string, log zerolog.Logger) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("MCPFLEET_REDIS_URL is not a redis:// or rediss:// URL")
	}
	// Limits fail closed when Redis is away: fail fast too, instead of go-redis'
	// defaults (3 retries, 5 s dials) that turn an outage into seconds per call.
	// URL query parameters (dial_timeout=…, max_retries=…) still win.
	if opt.DialTimeout == 0 {
		opt.DialTimeout = time.Second
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = time.Second
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = time.Second
	}
	if opt.MaxRetries == 0 {
		opt.MaxRetries = 1
	}
	// go-redis logs through a global logger straight to stderr; route it
	// through ours (scrubbed JSON lines).
	redis.SetLogger(redisLog{log})
	rdb := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, fmt.Errorf("cannot reach Redis at %s (MCPFLEET_REDIS_URL): %v", opt.Addr, err)
	}
	return rdb, nil
}

type redisLog struct{ l zerolog.Logger }

func (r redisLog) Printf(_ context.Context, format string, v ...any) {
	r.l.Warn().Str("component", "redis").Msgf(format, v...)
}
