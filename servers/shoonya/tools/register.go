package tools

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/session"
)

// Env names of the wiring.
const (
	EnvAuth           = "SHOONYA_AUTH"                // oauth (default) or legacy
	EnvRESTURL        = "SHOONYA_REST_URL"            // REST base, default per era
	EnvWSURL          = "SHOONYA_WS_URL"              // websocket, default per era
	EnvAuthorizeURL   = "SHOONYA_AUTHORIZE_URL"       // OAuth login page
	EnvConfirm        = "SHOONYA_CONFIRM_ORDERS"      // require (default) or off
	EnvConfirmTimeout = "SHOONYA_CONFIRM_TIMEOUT"     // wait for an elicitation/create answer; default 90s
	EnvConfirmAddr    = "SHOONYA_CONFIRM_ADDR"        // the confirmation page's loopback listener on stdio; default 127.0.0.1:0
	EnvConfirmTTL     = "SHOONYA_CONFIRM_TTL"         // how long a confirmation link works; default 5m
	EnvTimeout        = "SHOONYA_TIMEOUT"             // per read call, Go duration; default 10s
	EnvOrderTimeout   = "SHOONYA_ORDER_TIMEOUT"       // per order call; default 15s
	EnvPerSecond      = "SHOONYA_REQUESTS_PER_SECOND" // client-side budget per account; default 20, 0 = off
	EnvPerMinute      = "SHOONYA_REQUESTS_PER_MINUTE" // default 200, 0 = off
)

// Instructions are sent to clients on initialize.
const Instructions = "Shoonya (Finvasia) broker bridge. Call connect_shoonya_broker first (every other tool needs its session; again when a tool says the session expired). Orders are real (unless results say mode paper): place_order is idempotent per idempotency_key, " +
	"enforces pre-trade limits and account guards, and never sends without the user's yes: through the client's prompt, or a one-time confirm_url the user opens (outcome confirmation_required: give the user the link; calling again sends nothing). Live prices: subscribe_market_feeds, then read or subscribe to shoonya://feed."

// Config builds the dependencies from the environment. With rdb (from
// MCPFLEET_REDIS_URL) the per-account request budget lives in Redis, shared by
// every replica; nil keeps it in this process.
func Config(rdb *redis.Client) (noren.Config, ConfirmMode, orders.Limits, error) {
	return ConfigOn(rdb, nil)
}

// ConfigOn is Config with the state file: without rdb, db (when not nil)
// holds the per-account request budget for every process on the host.
func ConfigOn(rdb *redis.Client, db *store.DB) (noren.Config, ConfirmMode, orders.Limits, error) {
	var cfg noren.Config
	switch a := strings.ToLower(env.Or(EnvAuth, "")); a {
	case "", "oauth":
		cfg.Era = noren.OAuth
	case "legacy":
		cfg.Era = noren.Legacy
	default:
		return cfg, "", orders.Limits{}, fmt.Errorf("%s must be oauth or legacy, not %q", EnvAuth, a)
	}
	cfg.RESTURL, cfg.WSURL, cfg.AuthorizeURL = os.Getenv(EnvRESTURL), os.Getenv(EnvWSURL), os.Getenv(EnvAuthorizeURL)
	perSec, perMin := 20, 200
	for _, x := range []struct {
		env string
		dst *int
	}{{EnvPerSecond, &perSec}, {EnvPerMinute, &perMin}} {
		if v := env.Or(x.env, ""); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return cfg, "", orders.Limits{}, fmt.Errorf("%s must be a whole number ≥ 0 (0 = no limit)", x.env)
			}
			*x.dst = n
		}
	}
	cfg.Limiter = noren.SharedLimiter(rdb, perSec, perMin)
	cfg.SharedLimiter = rdb != nil && cfg.Limiter != nil
	if rdb == nil && db != nil {
		// One account budget for every process on the host, as the broker counts it.
		cfg.Limiter = noren.LimiterOn(func(prefix string) []ratelimit.Option {
			return []ratelimit.Option{ratelimit.WithStore(db, prefix)}
		}, perSec, perMin)
		cfg.SharedLimiter, cfg.LimiterInFile = cfg.Limiter != nil, true
	}
	for _, x := range []struct {
		env string
		dst *time.Duration
	}{{EnvTimeout, &cfg.Timeout}, {EnvOrderTimeout, &cfg.OrderTimeout}} {
		if v := env.Or(x.env, ""); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return cfg, "", orders.Limits{}, fmt.Errorf("%s must be a positive duration like 10s, not %q", x.env, v)
			}
			*x.dst = d
		}
	}
	mode := ConfirmMode(strings.ToLower(env.Or(EnvConfirm, "")))
	switch mode {
	case "", ConfirmAuto:
		mode = ConfirmRequire
	case ConfirmRequire, ConfirmOff:
	default:
		return cfg, "", orders.Limits{}, fmt.Errorf("%s must be require or off, not %q", EnvConfirm, mode)
	}
	lim, err := orders.LimitsFromEnv()
	return cfg, mode, lim, err
}

// Register wires the server: client, sessions, safe orders, feed, tools and resources.
func Register(ctx context.Context, r *serve.Registry) error {
	var db *store.DB // without Redis: the state file, shared by this host's processes
	if r.Redis == nil {
		var err error
		if db, err = r.Store(); err != nil {
			return err
		}
	}
	cfg, mode, lim, err := ConfigOn(r.Redis, db)
	if err != nil {
		return err
	}
	pacer := orders.NewSharedPacer(r.Redis, lim.MaxOrdersPerMin)
	if db != nil {
		pacer = orders.NewStoredPacer(db, lim.MaxOrdersPerMin) // one order pace per user for every process
	}
	cfg.Logger = r.Log.With().Str("upstream", "shoonya").Logger()
	r.Drift.Register(noren.Shapes...)
	cfg.Drift = r.Drift
	client := noren.New(cfg)
	sessions := session.NewManager(client, session.CredentialsFromEnv())
	if r.Redis != nil {
		// Replicas share logins through Redis, and only encrypted: without a key, refuse to start.
		raw := os.Getenv(session.EnvStateKey)
		if strings.TrimSpace(raw) == "" {
			return fmt.Errorf("MCPFLEET_REDIS_URL is set but %s is not: shoonya keeps broker sessions in Redis only encrypted; set %s to 32 random bytes in base64 (openssl rand -base64 32), the same on every replica", session.EnvStateKey, session.EnvStateKey)
		}
		key, err := session.ParseStateKey(raw)
		if err != nil {
			return err
		}
		if sessions.Store, err = session.NewRedisStore(r.Redis, key); err != nil {
			return err
		}
	} else if raw := os.Getenv(session.EnvStateKey); strings.TrimSpace(raw) != "" {
		// No Redis: the day's login is kept in the state file, sealed with
		// the operator's key, so the next process (a stdio server per client
		// session) does not log in again. Without a key it is not persisted.
		key, err := session.ParseStateKey(raw)
		if err != nil {
			return err
		}
		db, err := r.Store()
		if err != nil {
			return err
		}
		if db != nil {
			fs, err := session.NewFileStore(ctx, db, key)
			if err != nil {
				return err
			}
			sessions.Store = fs
			r.Log.Info().Str("state_file", db.Path()).Msg("broker sessions kept in the state file, sealed with " + session.EnvStateKey)
		}
	} else {
		r.Log.Info().Msg("broker sessions are kept in this process only: set " + session.EnvStateKey + " (openssl rand -base64 32) to keep the day's login, sealed, in the state file")
	}
	notifier := feed.NewNotifier(nil) // feed.Register gives it the spine's sender
	hub := feed.NewHub(ctx, feed.Options{URL: client.Config().WSURL}, sessions.AuthFor, notifier)
	sessions.OnLogin = func(user string, _ noren.Auth) { hub.LoggedIn(user) }
	placer := orders.NewSharedPlacer(r.Redis)
	if db != nil {
		if placer, err = orders.NewStoredPlacer(ctx, db); err != nil { // one order per key for every process
			return err
		}
	}
	d := &Deps{Sessions: sessions, Hub: hub, Placer: placer, Limits: lim,
		Pacer: pacer, Confirm: mode, ChainConcurrency: 8, Now: r.Clock.Now, life: context.WithoutCancel(ctx)}
	if err := d.configureGuards(ctx, r, db); err != nil {
		return err
	}
	hub.UseUpdates(&feed.UpdateLog{State: d.Tickets.State}, r.Clock.Now) // shared like the guards' state
	log := r.Log
	var rdb redis.Cmdable // a nil *redis.Client must stay a nil interface
	if r.Redis != nil {
		rdb = r.Redis
	}
	d.Scrips = NewScripCache(rdb, cache.WithErrorHandler(func(err error) {
		log.Warn().Err(err).Msg("shoonya search cache: Redis failed; searching Noren without the shared cache")
	}))
	if redirect := env.Or(session.EnvRedirectURL, ""); redirect != "" && cfg.Era == noren.OAuth {
		if d.Callback, err = session.NewCallback(ctx, sessions, redirect, r.Log); err != nil {
			return err
		}
	}
	r.AddTools(All(d)...)
	feed.Register(r, hub, notifier)
	// A client watching the feed on one replica hears the ticks of a socket on another.
	notifier.Relay = r.ShareResourceUpdates(ctx, "shoonya", notifier.UpdatedURI)
	go notifier.Run(ctx)
	logOrderSafety(r, d)
	r.Log.Info().Str("login_generation", string(cfg.Era)).Str("confirm_orders", string(mode)).
		Int("max_order_qty", lim.MaxQuantity).Float64("max_order_value", lim.MaxOrderValue).
		Int("max_orders_per_minute", lim.MaxOrdersPerMin).Bool("shared_request_budget", cfg.SharedLimiter).
		Bool("shared_sessions", sessions.Store != nil).Msg("shoonya configured")
	return nil
}
