// Package client is the polymarket server's upstream client: Gamma (markets,
// events, search, comments), CLOB (books, prices, history), the Data API
// (positions, activity, holders, builder leaderboard) and two keyless BTC spot
// sources. Every call is a GET (or a read-only POST batch) through pkg/upstream
// with one deadline, retries on 425/429/5xx/resets, short caches with
// stale-on-error, and decoders that accept Polymarket's JSON-string lists and
// string-or-number numbers. Every error is an *envelope.Error.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Settings and their defaults (the three hosts: docs.polymarket.com/market-data/overview).
const (
	EnvGammaURL       = "POLYMARKET_GAMMA_URL"
	EnvClobURL        = "POLYMARKET_CLOB_URL"
	EnvDataURL        = "POLYMARKET_DATA_URL"
	EnvBTCURL         = "POLYMARKET_BTC_URL"
	EnvBTCFallbackURL = "POLYMARKET_BTC_FALLBACK_URL"

	DefaultGammaURL = "https://gamma-api.polymarket.com"
	DefaultClobURL  = "https://clob.polymarket.com"
	DefaultDataURL  = "https://data-api.polymarket.com"
	// Coinbase's keyless spot price (Coinbase Data API "Get Spot Price").
	DefaultBTCURL = "https://api.coinbase.com"
	// Kraken's public ticker (Kraken REST API "Get Ticker Information").
	DefaultBTCFallbackURL = "https://api.kraken.com"

	// DefaultTimeout is the original design's 10 s per request, retries included.
	DefaultTimeout = 10 * time.Second
)

// Cache lifetimes: hot reads are short (books a few seconds), a failed fetch
// serves the last copy for StaleFor.
const (
	GammaTTL = 15 * time.Second
	ClobTTL  = 3 * time.Second
	DataTTL  = 10 * time.Second
	BTCTTL   = 10 * time.Second
	StaleFor = 10 * time.Minute
)

// CachePrefix starts the Redis keys of the shared response cache.
const CachePrefix = "polymarket:cache:"

// Config configures a Client; zero fields take defaults.
type Config struct {
	GammaURL, ClobURL, DataURL, BTCURL, BTCFallbackURL string
	Timeout                                            time.Duration
	// Retries after the first attempt (default 2; negative = none); RetryWait is
	// the first backoff (default 200 ms). Tests shorten both.
	Retries   int
	RetryWait time.Duration
	// Redis shares the response cache between replicas; nil keeps it in memory.
	Redis  *redis.Client
	Logger zerolog.Logger
	// CacheOptions apply to every cache (tests pass a fake clock).
	CacheOptions []cache.Option
}

// Client calls Polymarket. It is safe for concurrent use.
type Client struct {
	gamma, clob, data, btc, btcFallback *upstream.Client
	timeout                             time.Duration
	retries                             int
	retryWait                           time.Duration
	caches                              map[*upstream.Client]*cache.Cache[json.RawMessage]
}

// Source says where an answer came from.
type Source struct {
	Cached bool `json:"-"`
	Stale  bool `json:"stale,omitempty"`
	AgeS   int  `json:"-"`
}

// Merge keeps the worst of two sources (stale wins).
func (s Source) Merge(o Source) Source {
	return Source{Cached: s.Cached && o.Cached, Stale: s.Stale || o.Stale, AgeS: max(s.AgeS, o.AgeS)}
}

// New builds a client.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	// upstream reads Retries the same way (0 default, negative none); the
	// resolved count also bounds this client's own 425 retries.
	retries := cfg.Retries
	switch {
	case retries == 0:
		retries = upstream.DefaultRetries
	case retries < 0:
		retries = 0
	}
	wait := cfg.RetryWait
	if wait <= 0 {
		wait = upstream.DefaultRetryWait
	}
	mk := func(name, base, env string, ds ...extract.Detector) *upstream.Client {
		return upstream.New(upstream.Config{Name: name, BaseURL: strings.TrimRight(base, "/"), URLEnv: env,
			Timeout: cfg.Timeout, Retries: cfg.Retries, RetryWait: wait, RetryMaxWait: 2 * time.Second,
			MaxBodyBytes: 16 << 20, Detectors: append([]extract.Detector{Cloudflare, TooEarly}, ds...),
			Logger: cfg.Logger, UserAgent: "mcpfleet-polymarket"})
	}
	c := &Client{
		gamma:       mk("Polymarket Gamma", or(cfg.GammaURL, DefaultGammaURL), EnvGammaURL, extract.Generic),
		clob:        mk("Polymarket CLOB", or(cfg.ClobURL, DefaultClobURL), EnvClobURL, extract.Generic),
		data:        mk("Polymarket Data API", or(cfg.DataURL, DefaultDataURL), EnvDataURL, extract.Generic),
		btc:         mk("Coinbase", or(cfg.BTCURL, DefaultBTCURL), EnvBTCURL, extract.Generic),
		btcFallback: mk("Kraken", or(cfg.BTCFallbackURL, DefaultBTCFallbackURL), EnvBTCFallbackURL, extract.Generic),
		timeout:     cfg.Timeout, retries: retries, retryWait: wait,
	}
	c.caches = map[*upstream.Client]*cache.Cache[json.RawMessage]{}
	for _, u := range []struct {
		c    *upstream.Client
		name string
		ttl  time.Duration
	}{{c.gamma, "gamma", GammaTTL}, {c.clob, "clob", ClobTTL}, {c.data, "data", DataTTL},
		{c.btc, "btc", BTCTTL}, {c.btcFallback, "btc2", BTCTTL}} {
		opts := []cache.Option{cache.WithStaleFor(StaleFor), cache.WithMaxEntries(2000)}
		if cfg.Redis != nil {
			opts = append(opts, cache.WithRedis(cfg.Redis, CachePrefix+u.name+":"))
		}
		c.caches[u.c] = cache.New[json.RawMessage](u.ttl, append(opts, cfg.CacheOptions...)...)
	}
	return c
}

func or(v, d string) string {
	if strings.TrimSpace(v) == "" {
		return d
	}
	return strings.TrimSpace(v)
}

// CloseIdleConnections releases pooled connections (tests, shutdown).
func (c *Client) CloseIdleConnections() {
	for u := range c.caches {
		u.CloseIdleConnections()
	}
}

// call is one request with the whole-call deadline: pkg/upstream retries 429,
// 5xx and resets; 425 ("service not ready", py-clob-client#273) is retried
// here, inside the same deadline, because it too is answered before any work.
func (c *Client) call(ctx context.Context, u *upstream.Client, req upstream.Request, nullable bool) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		resp, err := u.Do(ctx, req)
		if err == nil {
			if nullable && string(bytes.TrimSpace(resp.Body)) == "null" {
				return []byte("[]"), nil
			}
			return checkBody(req.Op, resp.Body, resp.Header)
		}
		var e *envelope.Error
		if !errors.As(err, &e) || resp.Status != 425 || attempt >= c.retries {
			return nil, err
		}
		wait := c.retryWait << attempt
		wait = wait/2 + rand.N(wait/2+1)
		dl, _ := ctx.Deadline()
		if time.Until(dl) <= wait {
			return nil, err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, err
		}
	}
}

// checkBody refuses answers that carry no data: an empty body or a literal
// null (source: Polymarket/rs-clob-client tests/data.rs; the routes
// where null means "none", such as /holders, ask with getNullable), an HTML
// page sent with 200, and the Data API's rate-limit answer sent with 200
// ({"error":"Too Many Requests"}, seen by public clients of the Data API):
// that one is rate_limited, retryable, and never cached as data.
func checkBody(op string, b []byte, h http.Header) ([]byte, error) {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0 || string(t) == "null":
		return nil, envelope.New(envelope.UpstreamError, "polymarket %s: Polymarket answered with no data (null); try again shortly", op).WithRetryable(true)
	case t[0] == '<':
		return nil, cloudflareError(op, 200)
	case t[0] == '{' && bytes.Contains(bytes.ToLower(t[:min(len(t), 200)]), []byte("too many requests")):
		var v struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(t, &v) == nil && strings.Contains(strings.ToLower(v.Error), "too many requests") {
			wait := retryAfter(h, BodyRateLimitWait)
			return nil, envelope.New(envelope.RateLimited,
				"polymarket %s: Polymarket is rate-limiting these requests (it answered 200 with \"Too Many Requests\"); retry in %ds",
				op, int(wait.Seconds()+0.999)).WithRetryable(true).WithRetryAfter(wait)
		}
	}
	return b, nil
}

// BodyRateLimitWait is the retry-after given for a 200 "Too Many Requests"
// body without a Retry-After header (the Data API's window is 10 s: ref:
// docs.polymarket.com/api-reference/rate-limits).
const BodyRateLimitWait = 10 * time.Second

// retryAfter reads Retry-After in seconds or as an HTTP date; def when absent.
func retryAfter(h http.Header, def time.Duration) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return def
}

// get is a cached GET: a fresh copy within the TTL is reused, and a failure
// serves the last good copy marked stale.
func (c *Client) get(ctx context.Context, u *upstream.Client, op, path string, q url.Values) ([]byte, Source, error) {
	return c.cached(ctx, u, upstream.Request{Op: op, Method: "GET", Path: path, Query: q}, path+"?"+q.Encode(), false)
}

// getNullable is get for routes where a literal null means "nothing": it is
// served as an empty list (Data API /holders for a market nobody holds or
// one unknown to the index: 200 null, dilettante-trading/polyoxide
// docs/specs/data/holders.md, verified live 2026-08-03 and 2026-08-27).
func (c *Client) getNullable(ctx context.Context, u *upstream.Client, op, path string, q url.Values) ([]byte, Source, error) {
	return c.cached(ctx, u, upstream.Request{Op: op, Method: "GET", Path: path, Query: q}, path+"?"+q.Encode(), true)
}

// post is a cached read-only POST (the CLOB's batch routes answer reads; they
// change nothing, so repeating them is safe).
func (c *Client) post(ctx context.Context, u *upstream.Client, op, path string, body any) ([]byte, Source, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, Source{}, envelope.New(envelope.Internal, "polymarket %s: cannot encode the request", op).WithCause(err)
	}
	return c.cached(ctx, u, upstream.Request{Op: op, Method: "POST", Path: path, RawBody: raw,
		ContentType: "application/json", Idempotent: true}, "POST "+path+" "+string(raw), false)
}

func (c *Client) cached(ctx context.Context, u *upstream.Client, req upstream.Request, key string, nullable bool) ([]byte, Source, error) {
	adm := admissionOf(ctx)
	v, meta, err := c.caches[u].Get(ctx, key, func(ctx context.Context) (json.RawMessage, error) {
		if err := adm.admit(ctx); err != nil {
			return nil, err
		}
		b, err := c.call(ctx, u, req, nullable)
		return json.RawMessage(b), err
	})
	if aerr := adm.refused(); aerr != nil {
		return nil, Source{}, aerr // our own limit: never answered by a stale copy
	}
	if err != nil {
		return nil, Source{}, err
	}
	src := Source{Cached: meta.Hit, Stale: meta.Stale}
	if meta.Hit {
		src.AgeS = int(meta.Age / time.Second)
	}
	return v, src, nil
}

// decode parses a body into T; a shape error is upstream_error naming the op.
func decode[T any](op string, body []byte) (T, error) {
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		msg := "the answer is not the JSON Polymarket documents"
		var e *envelope.Error
		if errors.As(err, &e) {
			msg += " (" + e.Message + ")"
		}
		return v, envelope.New(envelope.UpstreamError, "polymarket %s: %s; try again shortly", op, msg).
			WithRetryable(true).WithCause(err)
	}
	return v, nil
}
