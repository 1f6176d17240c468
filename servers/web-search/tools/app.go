package tools

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
	"github.com/mcpfleet/mcpfleet/servers/web-search/quota"
)

// Instructions are sent to clients on initialize.
const Instructions = `Web search through OpenAI's Responses API (web_search tool).
search_web answers a question with a short narrative and numbered citations (title, URL without tracking, the cited sentence). Each call costs one of a per-user budget (20 per 10 minutes by default); get_search_capabilities shows what is left, at no cost. Needs OPENAI_API_KEY.
fetch_page reads one page (a citation's URL) as Markdown at no OpenAI cost, within its own per-user limit.
` + envelope.ThirdPartyNote

// More settings and their environment variables (the OpenAI ones live in package openai).
const (
	EnvTimeout  = openai.EnvTimeout
	EnvLimit    = "WEB_SEARCH_LIMIT"
	EnvWindow   = "WEB_SEARCH_WINDOW"
	EnvCacheTTL = "WEB_SEARCH_CACHE_TTL"
	EnvRedisURL = "MCPFLEET_REDIS_URL"

	DefaultLimit    = 20
	DefaultWindow   = 10 * time.Minute
	DefaultCacheTTL = 2 * time.Minute
)

// Config is the server's configuration: flags with environment fallbacks.
// The API key comes only from the environment (OPENAI_API_KEY), never a flag.
type Config struct {
	BaseURL         string
	Model           string
	Effort          string
	ContextSize     string
	MaxToolCalls    int
	MaxOutputTokens int
	Timeout         time.Duration
	Limit           int
	Window          time.Duration
	CacheTTL        time.Duration
	FetchLimit      int // fetch_page reads per user per FetchWindow
	FetchWindow     time.Duration

	// Test hooks.
	Clock       clock.Clock   // the limit's and the cache's time source
	RetryWait   time.Duration // first backoff between attempts
	MaxAttempts int
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.BaseURL, "base-url", env.Or(openai.EnvBaseURL, openai.DefaultBaseURL), "OpenAI API base URL ["+openai.EnvBaseURL+"]")
	fs.StringVar(&c.Model, "model", env.Or(openai.EnvModel, openai.DefaultModel), "Responses model with web_search ["+openai.EnvModel+"]")
	fs.StringVar(&c.Effort, "reasoning-effort", env.Or(openai.EnvEffort, openai.DefaultEffort), "reasoning.effort: none, low, medium, high, xhigh, max; an effort the model refuses is sent as the nearest it takes (a warning says so; minimal never goes out: web_search refuses it); default omits it ["+openai.EnvEffort+"]")
	fs.StringVar(&c.ContextSize, "search-context-size", env.Or(openai.EnvContextSize, openai.DefaultContextSize), "web_search search_context_size: low, medium or high ["+openai.EnvContextSize+"]")
	fs.IntVar(&c.MaxToolCalls, "max-tool-calls", env.Int(openai.EnvMaxToolCalls, openai.DefaultMaxToolCalls), "max_tool_calls per search: every built-in tool call counts (each search, page open and find in page) ["+openai.EnvMaxToolCalls+"]")
	fs.IntVar(&c.MaxOutputTokens, "max-output-tokens", env.Int(openai.EnvMaxOutputTokens, openai.DefaultMaxOutputTokens), "max_output_tokens per search (reasoning included) ["+openai.EnvMaxOutputTokens+"]")
	fs.DurationVar(&c.Timeout, "timeout", env.Duration(EnvTimeout, openai.DefaultTimeout), "deadline of one search, retries included; an answer cut by it returns what came, marked partial ["+EnvTimeout+"]")
	fs.IntVar(&c.Limit, "limit", env.Int(EnvLimit, DefaultLimit), "searches per user per window ["+EnvLimit+"]")
	fs.DurationVar(&c.Window, "window", env.Duration(EnvWindow, DefaultWindow), "the limit's sliding window ["+EnvWindow+"]")
	c.fetchFlags(fs)
	fs.DurationVar(&c.CacheTTL, "cache-ttl", env.Duration(EnvCacheTTL, DefaultCacheTTL), "how long an identical search by the same user is answered from cache, free; 0 turns the cache off ["+EnvCacheTTL+"]")
}

// Register builds the client, the limit and the tools.
func (c *Config) Register(ctx context.Context, r *serve.Registry) error {
	if c.Limit <= 0 || c.Window <= 0 {
		return fmt.Errorf("%s and %s must be positive (got %d per %s)", EnvLimit, EnvWindow, c.Limit, c.Window)
	}
	switch c.ContextSize {
	case "", "low", "medium", "high":
	default:
		return fmt.Errorf("%s=%q: want low, medium or high", openai.EnvContextSize, c.ContextSize)
	}
	key := env.Or(openai.EnvAPIKey, "")
	cl := openai.New(openai.Config{APIKey: key, BaseURL: c.BaseURL, Model: c.Model, Effort: c.Effort, ContextSize: c.ContextSize,
		MaxToolCalls: c.MaxToolCalls, MaxOutputTokens: c.MaxOutputTokens, Timeout: c.Timeout,
		MaxAttempts: c.MaxAttempts, RetryWait: c.RetryWait, Logger: r.Log.With().Str("upstream", "openai").Logger()})
	qo := quota.Options{Clock: c.Clock}
	if r.Redis != nil {
		qo.Redis = r.Redis // replicas share one limit per user; Redis down fails closed
	} else {
		// Every process on the host (a stdio server per client session)
		// shares the limit through the state file; nil: memory.
		db, err := r.Store()
		if err != nil {
			return err
		}
		qo.Store = db
	}
	q := quota.New(c.Limit, c.Window, qo)
	var now func() time.Time
	if c.Clock != nil {
		now = c.Clock.Now
	}
	// The model's shutdown date, asked in the background at start-up and
	// once a day: never on a search's path.
	life := openai.NewWatcher(cl, now)
	log := r.Log
	life.Start(ctx, func(l openai.Lifecycle) {
		switch w := l.Warning(); {
		case w != "":
			log.Warn().Str("model", l.Model).Str("shutdown_date", l.ShutdownDate).Str("replacement", l.Replacement).Msg(w)
		case l.Err != "":
			log.Debug().Str("model", l.Model).Str("error", l.Err).Msg("web-search: the model's shutdown date could not be read; will ask again in an hour")
		default:
			log.Debug().Str("model", l.Model).Str("shutdown_date", l.ShutdownDate).Msg("web-search: model lifecycle checked")
		}
	})
	pages, err := c.newPages(r)
	if err != nil {
		return err
	}
	svc := NewService(cl, q, ServiceOptions{Pages: pages, CacheTTL: c.CacheTTL, Redis: r.Redis, Backend: r.CacheOptions(CachePrefix), Clock: c.Clock, Log: r.Log, Lifecycle: life})
	r.AddTools(All(svc)...)
	if _, note := cl.EffortSent(); note != "" {
		r.Log.Warn().Str("effort", c.Effort).Msg("web-search: " + note)
	}
	r.Log.Info().Str("base_url", cl.Config().BaseURL).Str("model", cl.Config().Model).Bool("api_key_set", key != "").
		Int("limit", c.Limit).Dur("window", c.Window).Dur("cache_ttl", c.CacheTTL).Str("state", r.StateBackend()).
		Msg("web-search configured")
	if key == "" {
		r.Log.Warn().Msg("OPENAI_API_KEY is not set: search_web will answer unauthenticated")
	}
	return nil
}
