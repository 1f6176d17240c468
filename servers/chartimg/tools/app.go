package tools

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
)

// Instructions are sent to clients on initialize.
const Instructions = `chart-img.com bridge: TradingView charts as images.
Usual flow: construct_chart_config (plain English → config) → validate_chart_config (documented values and plan limits) → generate_chart_image (the image); generate_layout_chart captures a TradingView layout (the user's own indicators). fetch_chart_documentation has the indicator names and inputs; get_exchanges and get_symbols find EXCHANGE:SYMBOL. get_exchanges, get_symbols and the two render tools need CHART_IMG_API_KEY; images spend plan quota (CHART_IMG_PLAN).`

// Config is the server's configuration: flags with environment fallbacks. The API
// key comes only from the environment (CHART_IMG_API_KEY), never a flag.
type Config struct {
	APIURL  string
	DocsURL string
	Plan    string
	Timeout time.Duration
	// Retries overrides the retry count (tests); 0 = default.
	Retries int
	// RetryWait overrides the first backoff (tests).
	RetryWait time.Duration
	// NoLimiter turns off the client-side plan limiter (tests of upstream 429s).
	NoLimiter bool
	// DailyMax lowers the plan's daily maximum in the client-side limiter
	// (--daily-max, CHART_IMG_DAILY_MAX: spend less than the plan allows,
	// shared by replicas through Redis); 0 = the plan's.
	DailyMax int
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.APIURL, "api-url", env.Or(client.EnvAPIURL, client.DefaultAPIURL), "chart-img API base URL ["+client.EnvAPIURL+"]")
	fs.StringVar(&c.DocsURL, "docs-url", env.Or(client.EnvDocsURL, client.DefaultDocsURL), "chart-img docs page URL ["+client.EnvDocsURL+"]")
	fs.StringVar(&c.Plan, "plan", env.Or(client.EnvPlan, ""), "chart-img plan: BASIC, PRO, MEGA, ULTRA or ENTERPRISE (client-side limiter and plan-limit checks); empty: unknown, not enforced ["+client.EnvPlan+"]")
	fs.DurationVar(&c.Timeout, "timeout", 60*time.Second, "per-call deadline for chart-img requests")
	fs.IntVar(&c.DailyMax, "daily-max", c.DailyMax, "requests a day for the client-side limiter, below the plan's (with --plan); 0: the plan's ["+EnvDailyMax+"]")
}

// EnvDailyMax caps the day's requests below the plan's daily maximum.
const EnvDailyMax = "CHART_IMG_DAILY_MAX"

// Register builds the client and adds the tools.
func (c *Config) Register(_ context.Context, r *serve.Registry) error {
	if c.APIURL == "" {
		c.APIURL = env.Or(client.EnvAPIURL, client.DefaultAPIURL)
	}
	if c.DocsURL == "" {
		c.DocsURL = env.Or(client.EnvDocsURL, client.DefaultDocsURL)
	}
	if c.Plan == "" {
		c.Plan = env.Or(client.EnvPlan, "")
	}
	// chart-img does not say which plan a key has, so an unset plan stays
	// unknown (no local limiter, plan limits only warned about) rather than
	// defaulting to BASIC and refusing what a paid key may do.
	var plan chart.Plan
	if c.Plan != "" {
		var ok bool
		if plan, ok = chart.PlanByName(c.Plan); !ok {
			return fmt.Errorf("%s=%q: want one of %s, or leave it unset", client.EnvPlan, c.Plan, strings.Join(chart.PlanNames, ", "))
		}
	}
	if v := env.Or(EnvDailyMax, ""); v != "" && c.DailyMax == 0 {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("%s=%q: want a whole number of requests a day ≥ 0 (0: the plan's)", EnvDailyMax, v)
		}
		c.DailyMax = n
	}
	if c.DailyMax > 0 && plan.Name != "" {
		plan.DailyMax = c.DailyMax
	}
	key := env.Or(client.EnvAPIKey, "")
	tv := client.TVSession{ID: env.Or(client.EnvTVSessionID, ""), Sign: env.Or(client.EnvTVSessionSign, "")}
	if (tv.ID == "") != (tv.Sign == "") {
		return fmt.Errorf("set both %s and %s (the tradingview.com sessionid and sessionid_sign cookies), or neither", client.EnvTVSessionID, client.EnvTVSessionSign)
	}
	// r.Redis (MCPFLEET_REDIS_URL) shares the plan limiter and the caches
	// between replicas; without it the state file shares them between the
	// processes of this host and keeps them across restarts.
	var db *store.DB
	if r.Redis == nil {
		var err error
		if db, err = r.Store(); err != nil {
			return err
		}
	}
	r.Drift.Register(client.Shapes...)
	cl := client.New(client.Config{APIURL: c.APIURL, DocsURL: c.DocsURL, APIKey: key, Plan: plan, Timeout: c.Timeout, TVSession: tv,
		Retries: c.Retries, RetryWait: c.RetryWait, NoLimiter: c.NoLimiter, Redis: r.Redis, Store: db,
		Logger: r.Log.With().Str("upstream", "chart-img").Logger(), Now: r.Clock.Now, Drift: r.Drift})
	log := r.Log
	r.AddTools(All(NewServiceOn(cl, r.CacheOptions, cache.WithErrorHandler(func(err error) {
		log.Warn().Err(err).Msg("chart-img cache: its store failed; fetching from chart-img without the shared cache")
	})))...)
	ev := r.Log.Info().Str("api_url", c.APIURL).Str("plan", cmpOr(plan.Name, "unknown")).Bool("api_key_set", key != "").Bool("tradingview_session_set", tv.ID != "").
		Str("state", r.StateBackend()).Bool("read_only", r.ReadOnly)
	ev.Msg("chartimg configured")
	if key == "" {
		r.Log.Warn().Msg("CHART_IMG_API_KEY is not set: get_exchanges, get_symbols and generate_chart_image will answer unauthenticated")
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
