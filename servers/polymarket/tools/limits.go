package tools

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// Per-user limits of the original (ref: polymarket.md §2.1: non-admins get 30
// public and 10 user-data calls per minute).
const (
	PublicPerMinute = 30
	UserPerMinute   = 10
	// LimitPrefix starts the Redis keys of the shared limits.
	LimitPrefix = "polymarket:rl:"
)

// Limiters builds the public and user-data limiters: sliding windows per
// minute, in Redis when rdb is set (shared by replicas), else in memory.
func Limiters(rdb *redis.Client, publicPerMin, userPerMin int, opts ...ratelimit.Option) (public, user ratelimit.Limiter) {
	with := func(name string) []ratelimit.Option {
		o := append([]ratelimit.Option{}, opts...)
		if rdb != nil {
			o = append(o, ratelimit.WithRedis(rdb, LimitPrefix+name+":"))
		}
		return o
	}
	return ratelimit.NewSlidingWindow(publicPerMin, time.Minute, with("public")...),
		ratelimit.NewSlidingWindow(userPerMin, time.Minute, with("user")...)
}

type class int

const (
	publicCall class = iota
	userCall
)

// limited admits a call for the bearer user (serve.UserID: "local" on stdio)
// before the handler runs; a denied call sends nothing upstream.
func limited[In, Out any](s *Service, k class, h toolkit.Handler[In, Out]) toolkit.Handler[In, Out] {
	l, what, per := s.public, "public read", s.publicN
	if k == userCall {
		l, what, per = s.user, "user-data", s.userN
	}
	return func(ctx context.Context, in In) (Out, error) {
		var zero Out
		d, err := l.Allow(ctx, serve.UserID(ctx))
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && !s.shared {
				return zero, err
			}
			return zero, envelope.New(envelope.UpstreamUnavailable,
				"the shared rate-limit store (Redis, MCPFLEET_REDIS_URL) did not answer, so nothing was sent to Polymarket; try again shortly").
				WithRetryable(true).WithCause(err)
		}
		if !d.Allowed {
			return zero, envelope.New(envelope.RateLimited,
				"limit of %d %s calls per minute per user reached; retry in %ds", per, what, int(d.RetryAfter.Seconds()+0.999)).
				WithRetryAfter(d.RetryAfter).WithRetryable(true)
		}
		return h(ctx, in)
	}
}
