package tools

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/pagereader"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// fetch_page's settings: its own per-user limit, apart from the search
// budget (a page read costs OpenAI nothing, but it costs the site).
const (
	EnvFetchLimit  = "WEB_SEARCH_FETCH_LIMIT"
	EnvFetchWindow = "WEB_SEARCH_FETCH_WINDOW"

	DefaultFetchLimit  = 30
	DefaultFetchWindow = 10 * time.Minute

	// FetchLimitPrefix and PageCachePrefix start fetch_page's keys in the
	// shared state (Redis or the state file).
	FetchLimitPrefix  = "websearch:fetch:rl:"
	PageCachePrefix   = "websearch:page:"
	RobotsCachePrefix = "websearch:robots:"
)

// Pages is fetch_page's reader and its per-user limit.
type Pages struct {
	reader *pagereader.Reader
	lim    ratelimit.Limiter
	limit  int
	window time.Duration
	clock  clock.Clock
}

// PagesOptions configure NewPages; zero fields get the defaults.
type PagesOptions struct {
	Limit  int
	Window time.Duration
	// Reader is the page reader's configuration (pagereader.FromEnv applied
	// by the caller; its Clock defaults to Clock).
	Reader pagereader.Config
	// Limits is the per-user limit's backend (memory when empty).
	Limits []ratelimit.Option
	Clock  clock.Clock
}

// NewPages builds fetch_page's dependencies.
func NewPages(o PagesOptions) *Pages {
	if o.Limit <= 0 {
		o.Limit = DefaultFetchLimit
	}
	if o.Window <= 0 {
		o.Window = DefaultFetchWindow
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Reader.Clock == nil {
		o.Reader.Clock = o.Clock
	}
	if o.Reader.CacheTTL == 0 {
		o.Reader.CacheTTL = pagereader.DefaultCacheTTL
	}
	opts := append([]ratelimit.Option{ratelimit.WithClock(o.Clock)}, o.Limits...)
	return &Pages{reader: pagereader.New(o.Reader), lim: ratelimit.NewSlidingWindow(o.Limit, o.Window, opts...),
		limit: o.Limit, window: o.Window, clock: o.Clock}
}

// fetchFlags binds fetch_page's flags.
func (c *Config) fetchFlags(fs *flag.FlagSet) {
	fs.IntVar(&c.FetchLimit, "fetch-limit", env.Int(EnvFetchLimit, DefaultFetchLimit), "fetch_page reads per user per window (cached pages free) ["+EnvFetchLimit+"]")
	fs.DurationVar(&c.FetchWindow, "fetch-window", env.Duration(EnvFetchWindow, DefaultFetchWindow), "fetch_page limit's sliding window ["+EnvFetchWindow+"]")
}

// newPages wires fetch_page to the server's shared state.
func (c *Config) newPages(r *serve.Registry) (*Pages, error) {
	if c.FetchLimit < 0 || c.FetchWindow < 0 {
		return nil, fmt.Errorf("%s and %s must be positive (got %d per %s)", EnvFetchLimit, EnvFetchWindow, c.FetchLimit, c.FetchWindow)
	}
	limits, err := r.LimitOptions(FetchLimitPrefix)
	if err != nil {
		return nil, err
	}
	hostLimits, err := r.LimitOptions(FetchLimitPrefix + "host:")
	if err != nil {
		return nil, err
	}
	var clk clock.Clock = c.Clock
	if clk == nil {
		clk = r.Clock
	}
	cfg := pagereader.FromEnv(pagereader.Config{Limits: hostLimits, Cache: r.CacheOptions(PageCachePrefix),
		RobotsCache: r.CacheOptions(RobotsCachePrefix), CacheTTL: pagereader.DefaultCacheTTL})
	p := NewPages(PagesOptions{Limit: c.FetchLimit, Window: c.FetchWindow, Reader: cfg, Limits: limits, Clock: clk})
	r.Log.Info().Str("user_agent", p.reader.UserAgent()).Int("fetch_limit", p.limit).Dur("fetch_window", p.window).
		Bool("loopback_allowed", cfg.AllowLoopback).Msg("web-search fetch_page configured")
	return p, nil
}

// FetchIn is fetch_page's input.
type FetchIn struct {
	URL      string `json:"url"`
	Start    int    `json:"start,omitempty" mcp:"min=0"`
	MaxChars int    `json:"maxChars,omitempty" mcp:"min=1000;max=50000"`
}

// FetchOut is fetch_page's result: the shared page result. The user's
// remaining reads are not in it (the fleet's tools/list budget): a spent
// limit is a rate_limited error with retry_after_s.
type FetchOut = pagereader.Result

const fetchDescription = `Web page as Markdown + page{title, byline, published, links}. No OpenAI cost; 30 reads/10 min. complete=false: call again with start=N.`

func (p *Pages) fetchTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "fetch_page", Title: "Read page", Toolset: "search",
		Description: fetchDescription,
		// Read-only; not idempotent: a read the cache does not hold spends the user's limit.
		Hints: toolkit.Hints{ReadOnly: true, OpenWorld: true}}, p.fetch)
}

func (p *Pages) fetch(ctx context.Context, in FetchIn) (FetchOut, error) {
	if len(in.URL) > 2000 {
		return FetchOut{}, envelope.Invalid("url", "url is %d characters; at most 2000 are read", len(in.URL))
	}
	if in.Start < 0 {
		return FetchOut{}, envelope.Invalid("start", "start must be 0 or the start=N a cut result named")
	}
	if in.MaxChars != 0 && (in.MaxChars < pagereader.MinWindow || in.MaxChars > pagereader.MaxWindow) {
		return FetchOut{}, envelope.Invalid("maxChars", "maxChars must be %d..%d (default %d)", pagereader.MinWindow, pagereader.MaxWindow, pagereader.DefaultWindow)
	}
	user := serve.UserID(ctx)
	page, err := p.reader.ReadAdmitted(ctx, in.URL, func(ctx context.Context) error {
		d, err := p.lim.Allow(ctx, user)
		switch {
		case err != nil:
			return envelope.New(envelope.UpstreamUnavailable, "the shared fetch_page limit's store did not answer, so the page was not read; try again shortly").
				WithRetryAfter(redisRetryAfter).WithCause(err)
		case !d.Allowed:
			at := p.clock.Now().Add(d.RetryAfter).UTC()
			return envelope.New(envelope.RateLimited, "the %d page reads per %s for this user are used up; the next frees up in %s (at %s); pages read in the last 15 minutes are still free",
				p.limit, human(p.window), human(d.RetryAfter), at.Format(time.RFC3339)).
				WithRetryAfter(d.RetryAfter).WithDetail("limit", p.limit).WithDetail("window_s", int(p.window.Seconds()))
		}
		return nil
	})
	if err != nil {
		return FetchOut{}, err
	}
	return page.Result("fetch_page", in.Start, in.MaxChars), nil
}
