package tools

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// Instructions are sent to clients on initialize.
const Instructions = `KTRDR trading-research backend: market data cache, neuro-fuzzy strategy training, models, and the long operations behind them.
Long work (trigger_data_loading, start_training) returns an operation_id at once; follow it with wait_for_operation (progress notifications) or get_operation_status, then get_operation_results. Check get_data_summary before training. Any tool may fail with upstream_unavailable (backend down or slow; retryable): run health_check.
` + envelope.ThirdPartyNote

// Config is the server's configuration: flags with environment fallbacks.
type Config struct {
	APIURL        string
	Timeout       time.Duration
	DataLoadRoute string
	// Options tune the tools (tests shorten the poll backoff).
	Options Options
	// Retries overrides the backend retry count (tests); 0 is the default.
	Retries int
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.APIURL, "api-url", env.Or("KTRDR_API_URL", client.DefaultAPIURL), "KTRDR backend base URL including /api/v1 [KTRDR_API_URL]")
	fs.Func("timeout", "per-call backend timeout, e.g. 30s or 30 (seconds) [KTRDR_TIMEOUT] (default 30s)", func(s string) error {
		d, err := parseTimeout(s)
		c.Timeout = d
		return err
	})
	fs.StringVar(&c.DataLoadRoute, "data-load-route", env.Or("KTRDR_DATA_LOAD_ROUTE", client.RouteAuto),
		"data-load route: auto (probe once), load (POST /data/load, 3ba55e75) or acquire (POST /data/acquire/download, HEAD) [KTRDR_DATA_LOAD_ROUTE]")
}

// Register builds the client and adds the tools.
func (c *Config) Register(_ context.Context, r *serve.Registry) error {
	if c.Timeout == 0 {
		if v := os.Getenv("KTRDR_TIMEOUT"); v != "" {
			d, err := parseTimeout(v)
			if err != nil {
				return fmt.Errorf("KTRDR_TIMEOUT: %w", err)
			}
			c.Timeout = d
		}
	}
	if c.APIURL == "" {
		c.APIURL = env.Or("KTRDR_API_URL", client.DefaultAPIURL)
	}
	cl, err := client.New(client.Config{APIURL: c.APIURL, Timeout: c.Timeout, DataLoadRoute: c.DataLoadRoute,
		Logger: r.Log.With().Str("upstream", "ktrdr").Logger(), Retries: c.Retries})
	if err != nil {
		return err
	}
	o := c.Options
	o.APIURL = redactURL(c.APIURL)
	if r.Redis != nil {
		o.Redis = r.Redis
	}
	log := r.Log
	o.CacheOptions = append(o.CacheOptions, cache.WithErrorHandler(func(err error) {
		log.Warn().Err(err).Msg("ktrdr summary cache: Redis failed; reading the backend without the shared cache")
	}))
	r.AddTools(All(cl, o)...)
	r.Log.Info().Str("api_url", o.APIURL).Str("data_load_route", c.DataLoadRoute).Bool("read_only", r.ReadOnly).Msg("ktrdr configured")
	return nil
}

// parseTimeout accepts a Go duration ("45s") or plain seconds ("30", as the
// Python server's API_TIMEOUT), between 1 s and 10 min.
func parseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.ParseFloat(s, 64)
		if nerr != nil {
			return 0, fmt.Errorf("timeout %q: want a duration like 30s or a number of seconds", s)
		}
		d = time.Duration(n * float64(time.Second))
	}
	if d < time.Second || d > 10*time.Minute {
		return 0, fmt.Errorf("timeout %s: must be between 1s and 10m", d)
	}
	return d, nil
}

// redactURL hides a password in the base URL (http://user:pass@host) for
// results and logs.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.RawQuery = ""
	return u.Redacted()
}
