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
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// Per-user limits of the original polymarket-read (its issueMcpToken claims:
// non-admins get 30 public and 10 user-data calls per minute).
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

// limitersFor builds the limiters where the registry keeps state: Redis
// when MCPFLEET_REDIS_URL is set (replicas share them), else the state file
// (every process of this server on the host shares it, so a new stdio
// session does not start with a fresh allowance), else memory
// (MCPFLEET_STATE=memory). opts come first (a test's clock).
func limitersFor(r *serve.Registry, publicPerMin, userPerMin int, opts []ratelimit.Option) (public, user ratelimit.Limiter, store string, err error) {
	build := func(name string, perMin int) (ratelimit.Limiter, error) {
		backend, err := r.LimitOptions(LimitPrefix + name + ":")
		if err != nil {
			return nil, err
		}
		o := append(append([]ratelimit.Option{}, opts...), backend...)
		return ratelimit.NewSlidingWindow(perMin, time.Minute, o...), nil
	}
	if public, err = build("public", publicPerMin); err != nil {
		return nil, nil, "", err
	}
	if user, err = build("user", userPerMin); err != nil {
		return nil, nil, "", err
	}
	switch r.StateBackend() {
	case "redis":
		store = storeRedis
	case "store":
		store = storeFile
	}
	return public, user, store, nil
}

type class int

const (
	publicCall class = iota
	userCall
)

// limited counts a call against the bearer user's window (serve.UserID:
// "local" on stdio) only when it reaches Polymarket: the first cache miss of
// the call asks the limiter, so answers served from the cache cost nothing
// (the limit protects the upstream). A denied call sends nothing upstream.
func limited[In, Out any](s *Service, k class, h toolkit.Handler[In, Out]) toolkit.Handler[In, Out] {
	l, what, per := s.public, "public read", s.publicN
	if k == userCall {
		l, what, per = s.user, "user-data", s.userN
	}
	allow := func(ctx context.Context) error {
		d, err := l.Allow(ctx, serve.UserID(ctx))
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && s.store == "" {
				return err
			}
			return envelope.New(envelope.UpstreamUnavailable,
				"%s did not answer, so nothing was sent to Polymarket; try again shortly", s.store).
				WithRetryable(true).WithCause(err)
		}
		if !d.Allowed {
			return envelope.New(envelope.RateLimited,
				"limit of %d %s calls per minute per user reached (answers from the cache do not count); retry in %ds", per, what, int(d.RetryAfter.Seconds()+0.999)).
				WithRetryAfter(d.RetryAfter).WithRetryable(true)
		}
		return nil
	}
	return func(ctx context.Context, in In) (Out, error) {
		return h(client.WithAdmission(ctx, client.NewAdmission(allow)), in)
	}
}
