// Package tools defines google-news-rss's six MCP tools: list_editions,
// explain_operators, build_search_feed, preview_search_feed,
// fetch_search_feed and read_article. Descriptions follow one dense pattern: summary; when to
// use; what comes back; errors; related tools.
package tools

import (
	"context"
	"flag"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/pagereader"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/poll"
)

// Instructions are sent to clients on initialize.
const Instructions = `English Google News search feeds for scheduled trackers.
Flow: build_search_feed (structured query or raw q → canonical q, feed URL, query_key) → preview_search_feed (one live look) → fetch_search_feed(query_key) on a schedule: upstream is polled at most once per aligned 3-hour window per query_key; other calls get the cache (status cached), Google's throttling defers to the next window (status deferred). Every request to Google draws on one budget shared by all callers: rate_limited means wait retry_after_s. list_editions has the 24 English editions and UAE presets (there is no English UAE edition); explain_operators the operator cheat-sheet. An item's url is a Google News page (JavaScript), not the article: publisher_url is the article where its link was decoded before; read_article(url) decodes it (2 requests from the same budget, kept) and reads the article.
` + envelope.ThirdPartyNote

// Config is the server's configuration: flags with environment fallbacks.
type Config struct {
	BaseURL string
	Timeout time.Duration
	// RetryWait overrides the first retry backoff (tests).
	RetryWait time.Duration
	// Clock overrides the time source of the window claims and caches (tests).
	// With Redis it makes the claim script use this clock instead of Redis TIME.
	Clock clock.Clock
	// WaitFor overrides how long a caller waits for a poll in flight elsewhere (tests).
	WaitFor time.Duration
	// BudgetPerMinute and BudgetBurst size the request budget of the Google
	// News host (feed.BudgetPerMinute, feed.BudgetBurst by default).
	BudgetPerMinute, BudgetBurst int
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.BaseURL, "base-url", env.Or(feed.EnvBaseURL, feed.DefaultBaseURL), "Google News base URL ["+feed.EnvBaseURL+"]")
	fs.DurationVar(&c.Timeout, "timeout", feed.DefaultTimeout, "deadline of one feed poll, both attempts included")
	fs.IntVar(&c.BudgetPerMinute, "budget-per-minute", feed.BudgetPerMinute, "requests a minute to the Google News host, all callers and replicas together")
	fs.IntVar(&c.BudgetBurst, "budget-burst", feed.BudgetBurst, "requests to the Google News host allowed back to back")
}

// Register builds the client, the store and the window claims, and adds the tools.
func (c *Config) Register(ctx context.Context, r *serve.Registry) error {
	if c.BaseURL == "" {
		c.BaseURL = env.Or(feed.EnvBaseURL, feed.DefaultBaseURL)
	}
	var claimOpts []ratelimit.Option
	// a preview is a live look: after its minute, errors are shown, not a stale copy
	// Parsed feeds are large (tens of KB); a minute of previews rarely spans
	// more than a few hundred queries, so more copies would only hold memory.
	cacheOpts := []cache.Option{cache.WithStaleFor(0), cache.WithMaxEntries(PreviewCopies)}
	if c.Clock != nil {
		claimOpts = append(claimOpts, ratelimit.WithClock(c.Clock))
		cacheOpts = append(cacheOpts, cache.WithClock(c.Clock))
	}
	// One request budget for the Google News host, shared by preview and
	// fetch, by every user and, with shared state, by every process or replica.
	budgetOpts := []ratelimit.Option{}
	if c.Clock != nil {
		budgetOpts = append(budgetOpts, ratelimit.WithClock(c.Clock))
	}
	store := poll.NewMemoryStore()
	if r.Redis != nil {
		// MCPFLEET_REDIS_URL: replicas share kept keys, cached feeds and the
		// window claims, so a query_key is polled once per window in total.
		store = poll.NewRedisStore(r.Redis)
		claimOpts = append(claimOpts, ratelimit.WithRedis(r.Redis, poll.RedisPrefix+"poll:"))
		cacheOpts = append(cacheOpts, cache.WithRedis(r.Redis, poll.RedisPrefix+"preview:"))
		budgetOpts = append(budgetOpts, ratelimit.WithRedis(r.Redis, poll.RedisPrefix+"budget:"))
	} else if db, err := r.Store(); err != nil {
		return err
	} else if db != nil {
		// No Redis: the state file gives every process on the host (a stdio
		// server per session, a scheduled run) the same kept keys, feeds and
		// claims, so a key built in one is fetched in the next and polled
		// once per window.
		if store, err = poll.NewFileStore(ctx, db); err != nil {
			return err
		}
		claimOpts = append(claimOpts, ratelimit.WithStore(db, poll.RedisPrefix+"poll:"))
		cacheOpts = append(cacheOpts, cache.WithStore(db, poll.RedisPrefix+"preview:"))
		budgetOpts = append(budgetOpts, ratelimit.WithStore(db, poll.RedisPrefix+"budget:"))
	}
	clk := c.Clock
	if clk == nil {
		clk = clock.System{}
	}
	budget := feed.NewBudget(c.BaseURL, c.BudgetPerMinute, c.BudgetBurst, budgetOpts...).WithHolds(store, clk)
	cl := feed.New(feed.Config{BaseURL: c.BaseURL, Timeout: c.Timeout, RetryWait: c.RetryWait, Budget: budget,
		Logger: r.Log.With().Str("upstream", "google-news").Logger()})
	arts, err := c.articles(r, cl, clk)
	if err != nil {
		return err
	}
	p := poll.New(poll.Options{Store: store, Claims: ratelimit.NewWindowClaims(poll.Window, claimOpts...), Up: decodingFetcher{cl, arts},
		Clock: clk, Log: r.Log, WaitFor: c.WaitFor})
	log := r.Log
	cacheOpts = append(cacheOpts, cache.WithErrorHandler(func(err error) {
		log.Warn().Err(err).Msg("google-news-rss preview cache: its store failed; previewing without the shared cache")
	}))
	svc := &Service{client: cl, poller: p, store: store, clock: clk, preview: cache.New[feed.Feed](PreviewTTL, cacheOpts...), articles: arts}
	r.AddTools(All(svc)...)
	r.Log.Info().Str("base_url", feed.PublicBase(c.BaseURL)).Dur("timeout", c.Timeout).Str("state", r.StateBackend()).
		Stringer("request_budget", budget).Msg("google-news-rss configured")
	return nil
}

// Prefixes of read_article's state (Redis keys or state-file entries).
const (
	decodedPrefix = poll.RedisPrefix + "decoded:"
	pagePrefix    = poll.RedisPrefix + "page:"
)

// articles builds read_article's decoder cache and page reader on the
// server's shared state.
func (c *Config) articles(r *serve.Registry, cl *feed.Client, clk clock.Clock) (*Articles, error) {
	hostLimits, err := r.LimitOptions(pagePrefix + "host:")
	if err != nil {
		return nil, err
	}
	log := r.Log
	decoded := cache.New[decodedLink](DecodedTTL, append([]cache.Option{cache.WithStaleFor(0), cache.WithMaxEntries(20_000), cache.WithClock(clk),
		cache.WithErrorHandler(func(err error) {
			log.Warn().Err(err).Msg("google-news-rss decoded links: their store failed; decoding without the shared copy")
		})}, r.CacheOptions(decodedPrefix)...)...)
	cfg := pagereader.FromEnv(pagereader.Config{Limits: hostLimits, Cache: r.CacheOptions(pagePrefix), RobotsCache: r.CacheOptions(pagePrefix + "robots:"),
		CacheTTL: pagereader.DefaultCacheTTL, Clock: clk})
	return &Articles{client: cl, decoded: decoded, reader: pagereader.New(cfg)}, nil
}
