package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
	"github.com/mcpfleet/mcpfleet/servers/web-search/quota"
)

// CachePrefix starts the Redis keys of the shared answer cache.
const CachePrefix = "websearch:cache:"

// Service holds the client, the per-user limit and the answer cache.
type Service struct {
	c     *openai.Client
	q     *quota.Quota
	cache *cache.Cache[*openai.Result] // nil: off
	ttl   time.Duration
	clock clock.Clock
	life  *openai.Watcher // nil: lifecycle not watched (tests)
	pages *Pages          // fetch_page
}

// ServiceOptions configure NewService.
type ServiceOptions struct {
	// CacheTTL > 0 answers an identical search by the same user from cache
	// (no spend) for that long; failures are never cached.
	CacheTTL time.Duration
	Redis    *redis.Client // shares the cache between replicas
	// Backend is the cache's backend option (serve's CacheOptions: Redis,
	// the state file or none); it replaces Redis when set.
	Backend []cache.Option
	Clock   clock.Clock
	Log     zerolog.Logger
	// Lifecycle reports the model's shutdown date (get_search_capabilities).
	Lifecycle *openai.Watcher
	// Pages is fetch_page's reader and limit (NewPages' defaults when nil).
	Pages *Pages
}

// NewService wires the tools' dependencies.
func NewService(c *openai.Client, q *quota.Quota, o ServiceOptions) *Service {
	s := &Service{c: c, q: q, ttl: o.CacheTTL, clock: o.Clock, life: o.Lifecycle, pages: o.Pages}
	if s.clock == nil {
		s.clock = clock.System{}
	}
	if s.pages == nil {
		s.pages = NewPages(PagesOptions{Clock: s.clock})
	}
	if o.CacheTTL > 0 {
		log := o.Log
		opts := []cache.Option{cache.WithStaleFor(0), cache.WithMaxEntries(2048), cache.WithClock(s.clock),
			cache.WithErrorHandler(func(err error) {
				log.Warn().Err(err).Msg("web-search cache: its store failed; searching without the shared cache")
			})}
		switch {
		case o.Backend != nil:
			opts = append(opts, o.Backend...)
		case o.Redis != nil:
			opts = append(opts, cache.WithRedis(o.Redis, CachePrefix))
		}
		s.cache = cache.New[*openai.Result](o.CacheTTL, opts...)
	}
	return s
}

// redisRetryAfter is when to try again after the shared limit store failed.
const redisRetryAfter = 2 * time.Second

// admit spends one of user's searches, or says when the next one frees up.
// It fails closed: if the shared store cannot answer, nothing is sent.
func (s *Service) admit(ctx context.Context, user string) (ratelimit.Decision, error) {
	d, err := s.q.Take(ctx, user)
	if err != nil {
		if ctx.Err() != nil {
			return d, envelope.From(ctx.Err())
		}
		return d, envelope.New(envelope.UpstreamUnavailable, "the shared search limit in Redis (%s) did not answer, so nothing was sent to OpenAI (the limit guards spend); try again shortly, or check that Redis is up", EnvRedisURL).
			WithRetryAfter(redisRetryAfter).WithCause(err)
	}
	if !d.Allowed {
		at := s.clock.Now().Add(d.RetryAfter).UTC()
		return d, envelope.New(envelope.RateLimited, "the %d searches per %s for this user are used up; the next frees up in %s (at %s); nothing was spent — try again then, or use what you have",
			s.q.Limit(), human(s.q.Window()), human(d.RetryAfter), at.Format(time.RFC3339)).
			WithRetryAfter(d.RetryAfter).WithDetail("limit", s.q.Limit()).WithDetail("window_s", int(s.q.Window().Seconds())).
			WithDetail("next_free_at", at.Format(time.RFC3339))
	}
	return d, nil
}

// human rounds a duration for messages: 3m12s, 45s, 1.5s.
func human(d time.Duration) string {
	if d >= 10*time.Second {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// cacheKey names a search of one user: the user and a hash of the request.
func cacheKey(user string, q openai.Query) string {
	b, _ := json.Marshal(q)
	sum := sha256.Sum256(b)
	return user + ":" + hex.EncodeToString(sum[:16])
}

// run answers q for user: from cache, or by spending one search.
// remaining is what the admission left (-1: not admitted here, e.g. a cache
// hit); the fetch may run on the cache's goroutine, hence the atomic.
func (s *Service) run(ctx context.Context, user string, q openai.Query, progress openai.Progress) (res *openai.Result, cached bool, remaining int, err error) {
	var left atomic.Int64
	left.Store(-1)
	fetch := func(ctx context.Context) (*openai.Result, error) {
		d, err := s.admit(ctx, user)
		if err != nil {
			return nil, err
		}
		left.Store(int64(d.Remaining))
		res, err := s.c.Search(ctx, q, progress)
		if err == nil && res.Cut != "" {
			return nil, cutResult{res} // answered, but never cached
		}
		return res, err
	}
	if s.cache == nil {
		res, err = fetch(ctx)
		res, err = uncut(res, err)
		return res, false, int(left.Load()), err
	}
	res, meta, err := s.cache.Get(ctx, cacheKey(user, q), fetch)
	if res, err = uncut(res, err); err != nil {
		var e *envelope.Error
		if !errors.As(err, &e) {
			err = envelope.From(err)
		}
	}
	return res, meta.Hit, int(left.Load()), err
}

// cutResult carries a result the deadline cut through the cache as an
// error, so the cache keeps it out; uncut unwraps it.
type cutResult struct{ res *openai.Result }

func (cutResult) Error() string { return "the search was cut at its deadline" }

func uncut(res *openai.Result, err error) (*openai.Result, error) {
	var c cutResult
	if errors.As(err, &c) {
		return c.res, nil
	}
	return res, err
}
