package tools

import (
	"context"
	"flag"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"net/url"
	"strconv"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/feed"
)

// Instructions are sent to clients on initialize.
const Instructions = `Read-only Polymarket data (no keys, no trading). ` + envelope.ThirdPartyNote + `
Find markets with search_markets, list_markets or the find_* helpers; get_market gives outcomes with token_id (for get_order_books, get_prices, get_price_history) and condition_id (for get_top_holders). Events group markets (list_events, get_event). Wallet data: get_user_positions, get_user_activity (0x + 40 hex). Paging tools return next_cursor; pass it back with the same filters. Live books: subscribe_market_feed, then read or subscribe to polymarket://feed. Prices are 0..1 (probability); volumes in USDC. Limits per user: 30 public and 10 user-data calls per minute.`

// Config is the server's configuration: flags with environment fallbacks.
type Config struct {
	GammaURL, ClobURL, DataURL, BTCURL, BTCFallbackURL string
	MarketWSURL                                        string
	// Feed tunes the market socket (tests shorten its waits).
	Feed    feed.Options
	Timeout time.Duration
	// Test knobs: retries (0 = default, negative = none), first backoff, limits.
	Retries         int
	RetryWait       time.Duration
	PublicPerMinute int
	UserPerMinute   int
	LimitOptions    []ratelimit.Option
	CacheOptions    []cache.Option
	// Extra tools added by other packages (one line each at merge).
	Extra []func(r *serve.Registry) error
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.GammaURL, "gamma-url", env.Or(client.EnvGammaURL, client.DefaultGammaURL), "Gamma API base URL ["+client.EnvGammaURL+"]")
	fs.StringVar(&c.ClobURL, "clob-url", env.Or(client.EnvClobURL, client.DefaultClobURL), "CLOB API base URL ["+client.EnvClobURL+"]")
	fs.StringVar(&c.DataURL, "data-url", env.Or(client.EnvDataURL, client.DefaultDataURL), "Data API base URL ["+client.EnvDataURL+"]")
	fs.StringVar(&c.BTCURL, "btc-url", env.Or(client.EnvBTCURL, client.DefaultBTCURL), "BTC spot source (Coinbase API) ["+client.EnvBTCURL+"]")
	fs.StringVar(&c.BTCFallbackURL, "btc-fallback-url", env.Or(client.EnvBTCFallbackURL, client.DefaultBTCFallbackURL), "BTC fallback source (Kraken API) ["+client.EnvBTCFallbackURL+"]")
	fs.StringVar(&c.MarketWSURL, "market-ws-url", env.Or(EnvMarketWSURL, DefaultMarketWSURL), "CLOB market websocket ["+EnvMarketWSURL+"]")
	fs.DurationVar(&c.Timeout, "timeout", client.DefaultTimeout, "deadline per upstream request, retries included")
}

// Register builds the client, the limiters and the tools.
func (c *Config) Register(ctx context.Context, r *serve.Registry) error {
	def := func(p *string, key, d string) {
		if *p == "" {
			*p = env.Or(key, d)
		}
	}
	def(&c.GammaURL, client.EnvGammaURL, client.DefaultGammaURL)
	def(&c.ClobURL, client.EnvClobURL, client.DefaultClobURL)
	def(&c.DataURL, client.EnvDataURL, client.DefaultDataURL)
	def(&c.BTCURL, client.EnvBTCURL, client.DefaultBTCURL)
	def(&c.BTCFallbackURL, client.EnvBTCFallbackURL, client.DefaultBTCFallbackURL)
	def(&c.MarketWSURL, EnvMarketWSURL, DefaultMarketWSURL)
	log := r.Log
	copts := append([]cache.Option{cache.WithErrorHandler(func(err error) {
		log.Warn().Err(err).Msg("polymarket cache: Redis failed; fetching from Polymarket without the shared cache")
	})}, c.CacheOptions...)
	cl := client.New(client.Config{GammaURL: c.GammaURL, ClobURL: c.ClobURL, DataURL: c.DataURL, BTCURL: c.BTCURL,
		BTCFallbackURL: c.BTCFallbackURL, Timeout: c.Timeout, Retries: c.Retries, RetryWait: c.RetryWait, Redis: r.Redis,
		Logger: r.Log.With().Str("upstream", "polymarket").Logger(), CacheOptions: copts})
	pub, err := perMinute(c.PublicPerMinute, EnvPublicPerMinute, PublicPerMinute)
	if err != nil {
		return err
	}
	usr, err := perMinute(c.UserPerMinute, EnvUserPerMinute, UserPerMinute)
	if err != nil {
		return err
	}
	public, user, store, err := limitersFor(r, pub, usr, c.LimitOptions)
	if err != nil {
		return err
	}
	svc := &Service{c: cl, public: public, user: user, publicN: pub, userN: usr, store: store, clock: r.Clock}
	r.AddTools(All(svc)...)
	fopt := c.Feed
	fopt.URL = c.MarketWSURL
	live := feed.New(ctx, fopt)
	r.AddTools(FeedTools(svc, live)...)
	feed.Register(ctx, r, live)
	for _, add := range c.Extra {
		if err := add(r); err != nil {
			return err
		}
	}
	r.Log.Info().Str("gamma_url", safeURL(c.GammaURL)).Str("clob_url", safeURL(c.ClobURL)).Str("data_url", safeURL(c.DataURL)).Str("market_ws_url", safeURL(c.MarketWSURL)).
		Bool("shared_caches", r.Redis != nil).Str("limits", r.StateBackend()).Msg("polymarket configured")
	return nil
}

// safeURL drops credentials and the query from a URL for logs.
func safeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// Per-user call limits an operator may change (a self-hosted deployment with
// its own quota, or a benchmark's thousands of calls a minute); unset keeps
// the original's limits.
const (
	EnvPublicPerMinute = "POLYMARKET_PUBLIC_PER_MINUTE"
	EnvUserPerMinute   = "POLYMARKET_USER_PER_MINUTE"
)

// perMinute is set (a test's knob), else env's positive integer, else def.
func perMinute(set int, name string, def int) (int, error) {
	if set > 0 {
		return set, nil
	}
	v := env.Or(name, "")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive number of calls per minute per user (default %d)", name, v, def)
	}
	return n, nil
}
