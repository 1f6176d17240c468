// Package client calls chart-img.com: v2 advanced-chart (image bytes, or a
// storage URL), v3 exchange list and symbols, and the docs site. It sits on
// pkg/upstream (deadlines, retries on 429/5xx only, body caps, error mapping),
// adds the x-api-key header, a per-plan limiter (requests per second with burst,
// and per day; in Redis when replicas share it, keyed by a hash of the API key),
// and turns 403 "Exceed Max Usage … Limit (…)" answers into
// errors that name the plan limit hit.
package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig checks the bytes are the image they claim to be
	_ "image/png"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// Defaults and the environment variables that override them.
const (
	DefaultAPIURL  = "https://api.chart-img.com"
	DefaultDocsURL = "https://doc.chart-img.com/"
	EnvAPIKey      = "CHART_IMG_API_KEY"
	EnvPlan        = "CHART_IMG_PLAN"
	EnvAPIURL      = "CHART_IMG_API_URL"
	EnvDocsURL     = "CHART_IMG_DOCS_URL"
)

// Config configures a Client.
type Config struct {
	APIURL  string
	DocsURL string
	APIKey  string
	Plan    chart.Plan
	// Timeout per call (a chart render can take several seconds); default 60s.
	Timeout time.Duration
	// Retries after the first attempt (429 and 5xx only); 0 = default 2, negative = none.
	Retries int
	// RetryWait is the first backoff; default 500ms.
	RetryWait time.Duration
	// NoLimiter turns off the client-side plan limiter (tests of upstream 429s).
	NoLimiter bool
	// Redis, when set, keeps the plan limiter's state in Redis (under
	// LimiterPrefix) so that every replica using the same API key shares the
	// plan's quota; nil keeps it in this process.
	Redis *redis.Client
	// Store, without Redis, keeps the plan limiter in the server's state
	// file, so every process on the host (a stdio server per client session)
	// spends the key's one daily quota; nil keeps it in this process.
	Store  *store.DB
	Logger zerolog.Logger
	// TVSession is the user's TradingView session, sent to the layout routes
	// only (layout.go); zero: shared layouts only.
	TVSession TVSession
	// Now is the clock the daily limit's reset time is read from (the server's
	// Registry.Clock); nil is the system clock.
	Now func() time.Time
	// Drift is the server's drift watch (serve.Registry.Drift, with Shapes
	// registered); nil watches nothing.
	Drift *drift.Watch
}

// Redis key prefixes of the plan limiter: the quota is the API key's, so all
// replicas count against one per-second bucket and one daily window. The key
// part is KeyID(api key), never the key itself.
const (
	LimiterPrefix   = "chartimg:rl:"
	perSecondPrefix = LimiterPrefix + "sec:"
	dailyPrefix     = LimiterPrefix + "day:"
	EnvRedisURL     = "MCPFLEET_REDIS_URL"
	redisRetryAfter = 2 * time.Second
)

// KeyID names an API key in limiter keys: the first 128 bits of its SHA-256,
// in hex, so Redis holds no usable secret.
func KeyID(apiKey string) string {
	sum := sha256.Sum256([]byte(apiKey))
	return hex.EncodeToString(sum[:16])
}

// Client is safe for concurrent use.
type Client struct {
	api    *upstream.Client
	docs   *upstream.Client
	key    string
	plan   chart.Plan
	perSec ratelimit.Limiter
	daily  ratelimit.Limiter
	keyID  string // the limiters' key: KeyID(key)
	shared bool   // the limiters live in Redis or the state file
	inFile bool   // the state file, not Redis
	// learned is the plan a 403 "Exceed Max Usage … Limit (…)" revealed when
	// CHART_IMG_PLAN is not set (only limits no two plans share).
	learned atomic.Pointer[chart.Plan]
	now     func() time.Time
	tv      TVSession
}

// New builds a client. A missing API key is not an error here: calls that need
// it fail with unauthenticated naming CHART_IMG_API_KEY, and the docs tools work.
func New(cfg Config) *Client {
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	if cfg.DocsURL == "" {
		cfg.DocsURL = DefaultDocsURL
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.RetryWait == 0 {
		cfg.RetryWait = 500 * time.Millisecond
	}
	if cfg.Redis != nil {
		cfg.Store = nil // Redis wins: replicas share it
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c := &Client{now: cfg.Now, tv: cfg.TVSession, key: cfg.APIKey, plan: cfg.Plan, keyID: KeyID(cfg.APIKey), shared: cfg.Redis != nil || cfg.Store != nil, inFile: cfg.Store != nil}
	// The limiter paces a known plan only: chart-img does not say which plan a
	// key has (no account route, no documented rate-limit headers), and a
	// guessed BASIC would refuse a paid key's 2nd request each second and its
	// 51st each day. Unknown, chart-img's own 429s are retried instead.
	if !cfg.NoLimiter && cfg.Plan.Name != "" {
		var sec, day []ratelimit.Option
		switch {
		case cfg.Redis != nil:
			sec = append(sec, ratelimit.WithRedis(cfg.Redis, perSecondPrefix))
			day = append(day, ratelimit.WithRedis(cfg.Redis, dailyPrefix))
		case cfg.Store != nil:
			sec = append(sec, ratelimit.WithStore(cfg.Store, perSecondPrefix))
			day = append(day, ratelimit.WithStore(cfg.Store, dailyPrefix))
		}
		c.perSec = ratelimit.NewTokenBucket(cfg.Plan.PerSecond, time.Second, max(cfg.Plan.Burst, 1), sec...)
		c.daily = ratelimit.NewSlidingWindow(cfg.Plan.DailyMax, 24*time.Hour, day...)
	}
	secret := map[string]string{}
	if cfg.APIKey != "" {
		secret["x-api-key"] = cfg.APIKey
	}
	c.api = upstream.New(upstream.Config{
		Name: "chart-img", BaseURL: strings.TrimRight(cfg.APIURL, "/"), URLEnv: EnvAPIURL,
		Timeout: cfg.Timeout, Retries: cfg.Retries, RetryWait: cfg.RetryWait, MaxRetryAfter: 10 * time.Second,
		MaxBodyBytes: 16 << 20, SecretHeaders: secret, Detectors: []extract.Detector{c.detect},
		Logger: cfg.Logger, Limiter: c.limit, Final: dailyLimitAnswer, Drift: cfg.Drift,
	})
	c.docs = upstream.New(upstream.Config{
		Name: "chart-img docs", BaseURL: cfg.DocsURL, URLEnv: EnvDocsURL, Timeout: 20 * time.Second,
		Retries: cfg.Retries, RetryWait: cfg.RetryWait, MaxBodyBytes: docsparse.MaxPageBytes, Logger: cfg.Logger,
		Drift: cfg.Drift,
	})
	return c
}

// Plan is the key's plan: CHART_IMG_PLAN if set, else the plan a 403 limit
// answer revealed, else the zero Plan (Name ""), meaning unknown: nothing
// checks plan limits locally then.
func (c *Client) Plan() chart.Plan {
	if c.plan.Name != "" {
		return c.plan
	}
	if p := c.learned.Load(); p != nil {
		return *p
	}
	return chart.Plan{}
}

// PlanSource says where Plan comes from: "CHART_IMG_PLAN", "learned" (from a
// 403 limit answer) or "unknown".
func (c *Client) PlanSource() string {
	switch {
	case c.plan.Name != "":
		return EnvPlan
	case c.learned.Load() != nil:
		return "learned"
	}
	return "unknown"
}

// HasKey reports whether an API key is configured.
func (c *Client) HasKey() bool { return c.key != "" }

func (c *Client) needKey() error {
	if c.key == "" {
		return envelope.New(envelope.Unauthenticated, "no chart-img API key: set %s to your key (free at chart-img.com); the docs and config tools work without it", EnvAPIKey)
	}
	return nil
}

// limit runs before every attempt: the plan's per-second rate (waiting, within
// the call's deadline) and its daily maximum (failing at once with retry-after).
// With a shared limiter it fails closed: when Redis cannot answer, nothing is
// sent, since an unthrottled call could spend a quota other replicas count on.
func (c *Client) limit(ctx context.Context) error {
	if c.perSec == nil {
		return nil
	}
	if err := ratelimit.Wait(ctx, c.perSec, c.keyID); err != nil {
		var de *ratelimit.DeadlineError
		if errors.As(err, &de) {
			return envelope.New(envelope.RateLimited, "the %s plan allows %d requests per second (%s); try again shortly", c.plan.Name, c.plan.PerSecond, EnvPlan).WithRetryAfter(de.RetryAfter)
		}
		return c.limiterError(ctx, err)
	}
	d, err := c.daily.Allow(ctx, c.keyID)
	if err != nil {
		return c.limiterError(ctx, err)
	}
	if q, ok := ctx.Value(quotaKey{}).(*Quota); ok && d.Allowed {
		q.Known, q.DailyLimit, q.DailyRemaining = true, d.Limit, d.Remaining
	}
	if !d.Allowed {
		return envelope.New(envelope.RateLimited, "the %s plan's daily maximum of %d requests is used up (%s=%s); try again in %s",
			c.plan.Name, c.plan.DailyMax, EnvPlan, c.plan.Name, d.RetryAfter.Round(time.Minute)).WithRetryAfter(d.RetryAfter)
	}
	return nil
}

// Quota is what is left of the plan's daily maximum after a call, as this
// server counts it (across replicas when the limiter is shared through Redis).
// chart-img documents no quota headers, so this count is the only source:
// Known is false when the plan is unknown (CHART_IMG_PLAN not set) and
// nothing is counted.
type Quota struct {
	Known          bool
	DailyLimit     int
	DailyRemaining int
}

type quotaKey struct{}

// WithQuota returns a context whose calls record the quota left into the
// returned Quota (the last attempt's figure wins).
func WithQuota(ctx context.Context) (context.Context, *Quota) {
	q := &Quota{}
	return context.WithValue(ctx, quotaKey{}, q), q
}

// limiterError maps a limiter failure: the caller's own deadline or
// cancellation as is, anything else (only Redis can fail) to a retryable
// upstream_unavailable that names the shared store.
func (c *Client) limiterError(ctx context.Context, err error) error {
	if ctx.Err() != nil || !c.shared {
		return err
	}
	if c.inFile {
		return envelope.New(envelope.UpstreamUnavailable, "chart-img plan limiter: the state file failed, so nothing was sent (the plan quota is counted there for every process): %s", err.Error()).
			WithRetryable(true).WithRetryAfter(redisRetryAfter).WithCause(err)
	}
	return envelope.New(envelope.UpstreamUnavailable, "chart-img plan limiter: the shared Redis (%s) did not answer, so nothing was sent (the plan quota is counted there for every replica); try again shortly, or check that Redis is up and %s points at it", EnvRedisURL, EnvRedisURL).
		WithRetryable(true).WithRetryAfter(redisRetryAfter).WithCause(err)
}

// detect is extract.ChartImg plus the plan named by a 403 limit message and
// the reset time of the daily limit's 429.
func (c *Client) detect(status int, body []byte) *envelope.Error {
	e := extract.ChartImg(status, body)
	if e == nil {
		return e
	}
	if dailyLimitAnswer(status, body) {
		return c.dailyLimitError()
	}
	if status != http.StatusForbidden {
		return e
	}
	var m struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &m)
	kind, value, ok := chart.ParseLimitMessage(m.Message)
	if !ok {
		return e
	}
	plan := chart.PlanForLimit(kind, value)
	var msg string
	switch kind {
	case chart.LimitResolution:
		msg = fmt.Sprintf("chart-img refused the size (%s): the plan allows at most %s pixels", m.Message, value)
		if up, ok := nextPlan(plan, func(p chart.Plan) bool { return fmt.Sprintf("%dx%d", p.MaxWidth, p.MaxHeight) != value }); ok {
			msg += fmt.Sprintf("; lower width/height or upgrade (%s allows %dx%d)", up.Name, up.MaxWidth, up.MaxHeight)
		}
	default:
		msg = fmt.Sprintf("chart-img refused the number of studies+drawings (%s): the plan allows %s combined", m.Message, value)
		if up, ok := nextPlan(plan, func(p chart.Plan) bool { return fmt.Sprint(p.MaxParameters) != value }); ok {
			msg += fmt.Sprintf("; remove some or upgrade (%s allows %d)", up.Name, up.MaxParameters)
		}
	}
	switch ps := chart.PlansForLimit(kind, value); {
	case plan != "" && c.plan.Name != "" && plan != c.plan.Name:
		msg += fmt.Sprintf(". These are the %s limits, but %s=%s: set it to %s so validation matches", plan, EnvPlan, c.plan.Name, plan)
	case c.plan.Name == "" && len(ps) == 1:
		c.learned.Store(&ps[0])
		msg += fmt.Sprintf(". The key is on the %s plan: later calls check its limits first (set %s=%s to keep that across restarts)", ps[0].Name, EnvPlan, ps[0].Name)
	}
	out := envelope.New(envelope.PermissionDenied, "%s", msg).WithDetail("limit", string(kind)).WithDetail("max", value)
	if plan != "" {
		out = out.WithDetail("plan", plan)
	}
	return out
}

func nextPlan(plan string, differs func(chart.Plan) bool) (chart.Plan, bool) {
	seen := plan == ""
	for _, p := range chart.Plans {
		if seen && differs(p) {
			return p, true
		}
		if p.Name == plan {
			seen = true
		}
	}
	return chart.Plan{}, false
}

// Image is a rendered chart.
type Image struct {
	Bytes  []byte
	MIME   string
	Width  int
	Height int
}

// Chart renders cfg (a JSON object) and returns the image. A render has no side
// effect beyond the plan's quota, so it is marked idempotent and retried on 429/5xx.
func (c *Client) Chart(ctx context.Context, cfg map[string]any) (Image, error) {
	if err := c.needKey(); err != nil {
		return Image{}, err
	}
	resp, err := c.api.Do(ctx, upstream.Request{Op: "render chart", Method: http.MethodPost,
		Path: "/v2/tradingview/advanced-chart", JSON: cfg, Idempotent: true, NoDetect: true})
	if err != nil {
		return Image{}, err
	}
	return ParseImage(resp.Header.Get("Content-Type"), resp.Body)
}

// ParseImage checks that an advanced-chart answer is the image it claims to be.
func ParseImage(contentType string, body []byte) (Image, error) {
	mime := strings.TrimSpace(strings.Split(contentType, ";")[0])
	if mime != "image/png" && mime != "image/jpeg" {
		if extract.ChartImg(422, body) != nil || json.Valid(body) {
			return Image{}, envelope.New(envelope.UpstreamError, "chart-img answered JSON instead of an image: %s", extract.Clip(string(body), 200))
		}
		return Image{}, envelope.New(envelope.UpstreamError, "chart-img answered %q instead of an image; try again", extract.Clip(mime, 60))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil || "image/"+format != mime {
		return Image{}, envelope.New(envelope.UpstreamError, "chart-img sent an unreadable %s (%d bytes); try again", mime, len(body)).WithRetryable(true)
	}
	return Image{Bytes: body, MIME: mime, Width: cfg.Width, Height: cfg.Height}, nil
}

// Stored is the storage endpoint's answer (expire, not expiresAt).
type Stored struct {
	URL    string `json:"url"`
	ETag   string `json:"etag"`
	Expire string `json:"expire"`
	Size   int    `json:"size,omitempty"`
}

// Store renders cfg to chart-img's public storage and returns its URL and expiry.
func (c *Client) Store(ctx context.Context, cfg map[string]any) (Stored, error) {
	if err := c.needKey(); err != nil {
		return Stored{}, err
	}
	resp, err := c.api.Do(ctx, upstream.Request{Op: "store chart", Method: http.MethodPost,
		Path: "/v2/tradingview/advanced-chart/storage", JSON: cfg, Idempotent: true})
	if err != nil {
		return Stored{}, err
	}
	var st Stored
	if err := extract.Into(resp.Body, &st); err != nil {
		return Stored{}, envelope.New(envelope.UpstreamError, "chart-img storage answered an unreadable body (%v); try again", envelope.From(err).Message).WithCause(err)
	}
	if st.URL == "" {
		return Stored{}, envelope.New(envelope.UpstreamError, "chart-img storage answered without a url; try again")
	}
	return st, nil
}

// ExchangeList is GET /v3/tradingview/exchange/list; both fields may be null.
type ExchangeList struct {
	UpdatedAt *string  `json:"updatedAt"`
	Payload   []string `json:"payload"`
}

// Exchanges lists exchange ids (the API gives ids only).
func (c *Client) Exchanges(ctx context.Context) (ExchangeList, error) {
	if err := c.needKey(); err != nil {
		return ExchangeList{}, err
	}
	var out ExchangeList
	err := c.api.GetJSON(ctx, "list exchanges", "/v3/tradingview/exchange/list", nil, &out)
	return out, err
}

// Symbol is one exchange symbol (hyphenated keys as sent).
type Symbol struct {
	Symbol       string   `json:"symbol"`
	Description  string   `json:"description"`
	Type         string   `json:"type"`
	Exchange     string   `json:"exchange"`
	CurrencyCode string   `json:"currency_code"`
	CurrencyLogo string   `json:"currency-logoid"`
	BaseLogo     string   `json:"base-currency-logoid"`
	ProviderID   string   `json:"provider_id"`
	SourceID     string   `json:"source_id"`
	TypeSpecs    []string `json:"typespecs"`
}

// SymbolList is GET /v3/tradingview/exchange/{id}.
type SymbolList struct {
	UpdatedAt *string  `json:"updatedAt"`
	Payload   []Symbol `json:"payload"`
}

// Symbols lists an exchange's symbols, optionally filtered upstream.
func (c *Client) Symbols(ctx context.Context, exchange, symbol, typ string) (SymbolList, error) {
	if err := c.needKey(); err != nil {
		return SymbolList{}, err
	}
	q := url.Values{}
	if symbol != "" {
		q.Set("symbol", symbol)
	}
	if typ != "" {
		q.Set("type", typ)
	}
	var out SymbolList
	path, err := upstream.Path(upstream.Lit("/v3/tradingview/exchange"), upstream.Arg("exchange", exchange))
	if err != nil {
		return SymbolList{}, err
	}
	op := "list symbols of " + exchange
	resp, err := c.api.Do(ctx, upstream.Request{Op: op, Route: "list symbols", Path: path, Query: q})
	if err != nil {
		return out, err
	}
	return out, c.api.Decode(op, resp, &out)
}

// Docs fetches and parses the documentation page.
func (c *Client) Docs(ctx context.Context) (*docsparse.Docs, error) {
	resp, err := c.docs.Do(ctx, upstream.Request{Op: "fetch docs", Method: http.MethodGet, Path: "", NoDetect: true})
	if err != nil {
		return nil, err
	}
	d, err := docsparse.Parse(bytes.NewReader(resp.Body))
	if err != nil {
		return nil, envelope.New(envelope.UpstreamError, "the chart-img docs page could not be read (%v); the last good copy is used", err).WithCause(err)
	}
	return d, nil
}
