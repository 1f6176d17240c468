package noren

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
)

// Era is the login generation: legacy QuickAuth (jKey bodies, /NorenWClientTP/)
// or OAuth GenAcsTok (Bearer header, /NorenWClientAPI/, mandatory for Shoonya
// since 2026-04-01).
type Era string

const (
	Legacy Era = "legacy"
	OAuth  Era = "oauth"
)

// Default hosts per era (ShoonyaApi-py api_helper.py; deepak-dhyani8742/Shoonya_oAuthAPI-py api_helper.py).
const (
	DefaultLegacyREST = "https://api.shoonya.com/NorenWClientTP/"
	DefaultLegacyWS   = "wss://api.shoonya.com/NorenWSTP/"
	DefaultOAuthREST  = "https://api.shoonya.com/NorenWClientAPI/"
	DefaultOAuthWS    = "wss://api.shoonya.com/NorenWSAPI/"
	DefaultAuthorize  = "https://trade.shoonya.com/OAuthlogin/authorize/oauth"
)

// Config is the client's wiring. Empty URLs take the era's defaults.
type Config struct {
	Era          Era
	RESTURL      string
	WSURL        string
	AuthorizeURL string
	Timeout      time.Duration // per read call (retries included); 0 → 10s
	OrderTimeout time.Duration // per order call; 0 → 15s
	HTTPClient   *http.Client
	// Limiter throttles calls per account (keyed by Auth.LimitKey) on the
	// client side; Shoonya allows 20 requests/s and 200/min (Shoonya-Dev on ShoonyaApi-py#146).
	Limiter ratelimit.Limiter
	// SharedLimiter says Limiter keeps its state in Redis or the state file:
	// its errors are then that store failing, answered as upstream_unavailable.
	SharedLimiter bool
	// LimiterInFile says that store is the state file, not Redis.
	LimiterInFile bool
	// Logger gets the drift watch's warnings (and a debug line per attempt).
	Logger zerolog.Logger
	// Drift is the server's drift watch (serve.Registry.Drift, with Shapes
	// registered); nil watches nothing.
	Drift *drift.Watch
}

// DefaultLimiter is Shoonya's documented budget: 20 requests/s and 200/min.
// Both are exact sliding windows: a token bucket with burst 20 would admit up
// to 39 calls in some one-second interval, and the broker counts per window.
func DefaultLimiter() ratelimit.Limiter { return Limiter(20, 200) }

// Limiter allows perSecond and perMinute calls per account; 0 disables a window.
func Limiter(perSecond, perMinute int) ratelimit.Limiter {
	return SharedLimiter(nil, perSecond, perMinute)
}

// Redis key prefixes of the shared per-account budget (the key part is the
// account id): one sliding log per window, checked together in one script.
const (
	LimiterPrefix   = "shoonya:rl:"
	perSecondPrefix = LimiterPrefix + "sec:"
	perMinutePrefix = LimiterPrefix + "min:"
	EnvRedisURL     = "MCPFLEET_REDIS_URL"
)

// SharedLimiter is Limiter with its windows in Redis when rdb is not nil, so
// every replica logged in to an account spends the account's one budget, as
// the broker counts it; nil keeps them in this process.
func SharedLimiter(rdb *redis.Client, perSecond, perMinute int) ratelimit.Limiter {
	return LimiterOn(func(prefix string) []ratelimit.Option {
		if rdb == nil {
			return nil
		}
		return []ratelimit.Option{ratelimit.WithRedis(rdb, prefix)}
	}, perSecond, perMinute)
}

// LimiterOn is Limiter with each window's backend given per key prefix
// (Redis, the state file, or none: memory).
func LimiterOn(opts func(prefix string) []ratelimit.Option, perSecond, perMinute int) ratelimit.Limiter {
	var ls []ratelimit.Limiter
	if perSecond > 0 {
		ls = append(ls, ratelimit.NewSlidingWindow(perSecond, time.Second, opts(perSecondPrefix)...))
	}
	if perMinute > 0 {
		ls = append(ls, ratelimit.NewSlidingWindow(perMinute, time.Minute, opts(perMinutePrefix)...))
	}
	if len(ls) == 0 {
		return nil
	}
	return ratelimit.All(ls...)
}

// Defaults fills empty fields.
func (c Config) Defaults() Config {
	if c.Era == "" {
		c.Era = OAuth
	}
	if c.RESTURL == "" {
		c.RESTURL = map[Era]string{Legacy: DefaultLegacyREST, OAuth: DefaultOAuthREST}[c.Era]
	}
	if c.WSURL == "" {
		c.WSURL = map[Era]string{Legacy: DefaultLegacyWS, OAuth: DefaultOAuthWS}[c.Era]
	}
	if c.AuthorizeURL == "" {
		c.AuthorizeURL = DefaultAuthorize
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.OrderTimeout <= 0 {
		c.OrderTimeout = 15 * time.Second
	}
	return c
}

// Auth is a logged-in Noren session. Token is a secret: never log it.
type Auth struct {
	Era   Era
	UID   string
	ActID string
	Token string
}

// LimitKey is what the broker's request budget is counted per: the account
// id, or the user id when the login did not name an account.
func (a *Auth) LimitKey() string {
	if a.ActID != "" {
		return a.ActID
	}
	return a.UID
}

// Client talks to one Noren host.
type Client struct {
	cfg Config
	t   *transport
}

// New makes a client.
func New(cfg Config) *Client {
	cfg = cfg.Defaults()
	return &Client{cfg: cfg, t: newTransport(cfg.RESTURL, cfg.HTTPClient, cfg.Logger, cfg.Drift)}
}

// Config returns the effective configuration.
func (c *Client) Config() Config { return c.cfg }

// post sends jdata to route as a, applying the call deadline.
func (c *Client) post(ctx context.Context, route string, a *Auth, jdata map[string]any, idempotent bool) ([]byte, error) {
	return c.postAs(ctx, route, a, jdata, idempotent, false)
}

// postAs is post; jkeyToo also puts an OAuth access token in the body as
// &jKey= (the Bearer header stays): public OAuth-era clients send the chart
// routes that way (openalgo broker/shoonya/api/data.py sends
// TPSeries and EODChartData with jKey, "claiming those chart endpoints
// require it"; the vendor SDK 0.0.33 uses the Bearer header). Sending both
// satisfies either reading.
func (c *Client) postAs(ctx context.Context, route string, a *Auth, jdata map[string]any, idempotent, jkeyToo bool) ([]byte, error) {
	if kind := Routes[route]; kind == 0 || (kind == Reads) != idempotent {
		// A route missing from the table (or a read sent as a write) would
		// escape the probe's read-only rule: a programming error.
		return nil, envelope.New(envelope.Internal, "%s: not in the client's route table as sent", route)
	}
	timeout := c.cfg.Timeout
	if !idempotent {
		timeout = c.cfg.OrderTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if c.cfg.Limiter != nil && a != nil {
		// Keep part of the deadline for the request itself: a write sent with no
		// time left would only come back as outcome_unknown.
		wctx, wcancel := context.WithTimeout(ctx, timeout-min(timeout/3, 3*time.Second))
		err := ratelimit.Wait(wctx, c.cfg.Limiter, a.LimitKey())
		wcancel()
		if err != nil {
			var de *ratelimit.DeadlineError
			retry := time.Second
			if errors.As(err, &de) {
				retry = de.RetryAfter
			}
			if ctx.Err() != nil && !errors.Is(err, context.DeadlineExceeded) {
				return nil, envelope.From(ctx.Err())
			}
			// Wait returns a bare ctx.Err() when the wait itself ran out; any
			// other error (wrapped, even a deadline hit inside a Redis call) is
			// the shared store failing.
			waitEnded := err == context.DeadlineExceeded || err == context.Canceled
			if c.cfg.SharedLimiter && c.cfg.LimiterInFile && de == nil && !waitEnded {
				return nil, envelope.New(envelope.UpstreamUnavailable, "%s: the request budget's state file failed, so nothing was sent to Shoonya: %s", route, err.Error()).
					WithRetryable(true).WithRetryAfter(2 * time.Second).WithCause(err)
			}
			if c.cfg.SharedLimiter && de == nil && !waitEnded {
				// Fail closed: without the shared count, a call could break the
				// account's budget that other replicas are spending too.
				return nil, envelope.New(envelope.UpstreamUnavailable, "%s: the shared request budget's Redis (%s) did not answer, so nothing was sent to Shoonya; try again shortly, or check that Redis is up and %s points at it", route, EnvRedisURL, EnvRedisURL).
					WithRetryable(true).WithRetryAfter(2 * time.Second).WithCause(err)
			}
			return nil, envelope.New(envelope.RateLimited, "%s: this account's Shoonya request budget (SHOONYA_REQUESTS_PER_SECOND/_PER_MINUTE, default 20/s and 200/min) is used up; nothing was sent; try again shortly", route).WithRetryAfter(retry)
		}
	}
	var jkey, bearer string
	if a != nil {
		if a.Era == OAuth {
			bearer = a.Token
			if jkeyToo {
				jkey = a.Token
			}
		} else {
			jkey = a.Token
		}
	}
	body, err := Body(jdata, jkey)
	if err != nil {
		return nil, envelope.New(envelope.Internal, "%s: request could not be encoded", route).WithCause(err)
	}
	return c.t.do(ctx, request{op: route, body: body, bearer: bearer, idempotent: idempotent}, timeout)
}

func (c *Client) object(ctx context.Context, route string, a *Auth, jdata map[string]any, idempotent bool, dst any) error {
	body, err := c.post(ctx, route, a, jdata, idempotent)
	if err != nil {
		return err
	}
	err = DecodeObject(route, body, dst)
	if !idempotent && errors.Is(err, ErrUnreadable) {
		// The write arrived (an answer came back) but its outcome cannot be read.
		return outcomeUnknown(route, err)
	}
	return err
}

func list[T any](ctx context.Context, c *Client, route string, a *Auth, jdata map[string]any) ([]T, error) {
	body, err := c.post(ctx, route, a, jdata, true)
	if err != nil {
		return nil, err
	}
	return DecodeList[T](route, body)
}

// OrderRequest is PlaceOrder's payload in Noren codes (see package orders for
// the mapping from human values). Numbers are formatted by the client.
type OrderRequest struct {
	TranType  string // B, S
	Product   string // C, I, M, H, B, F
	Exch      string
	TSym      string
	Qty       int
	DiscQty   int
	PriceType string // LMT, MKT, SL-LMT, SL-MKT
	Price     float64
	Trigger   float64 // sent only for SL-LMT / SL-MKT
	Retention string  // DAY, IOC, EOS
	Remarks   string  // carries the idempotency key
	AMO       bool
	// Decimals formats prices with the instrument's precision (pp, or the
	// tick's decimals); 0 → shortest exact form (the zero value must never
	// round a price away).
	Decimals int
	// COVER (H) and BRACKET (B) legs, as price distances from the entry
	// (ShoonyaApi-py README: "stop-loss diff (H,B) / profit diff (B) / trailing
	// (H,B)"); sent only for those products.
	BookLoss   float64 // blprc: H and B
	BookProfit float64 // bpprc: B
	Trail      float64 // trailprc: H and B, optional
}

// FormatPrice renders a price with decimals digits (Noren's pp); decimals ≤ 0
// gives the shortest exact form (whole-number ticks print the same).
func FormatPrice(p float64, decimals int) string {
	if decimals <= 0 {
		return fnum(p)
	}
	return strconv.FormatFloat(p, 'f', decimals, 64)
}

func fnum(f float64) string { return strings.TrimRight(strings.TrimRight(formatFloat(f), "0"), ".") }

func formatFloat(f float64) string {
	s := strconvFormat(f)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func isStop(prctyp string) bool { return prctyp == "SL-LMT" || prctyp == "SL-MKT" }

// PlaceOrder sends PlaceOrder once (never retried) and returns norenordno.
func (c *Client) PlaceOrder(ctx context.Context, a *Auth, o OrderRequest) (string, error) {
	j := map[string]any{
		"ordersource": "API", "uid": a.UID, "actid": a.ActID,
		"trantype": o.TranType, "prd": o.Product, "exch": o.Exch, "tsym": QuoteSymbol(o.TSym),
		"qty": itoa(o.Qty), "dscqty": itoa(o.DiscQty), "prctyp": o.PriceType,
		"prc": priceStr(o.PriceType, o.Price, o.Decimals), "ret": o.Retention, "remarks": o.Remarks,
	}
	if isStop(o.PriceType) {
		j["trgprc"] = FormatPrice(o.Trigger, o.Decimals)
	}
	if o.AMO {
		j["amo"] = "Yes"
	}
	// The SDK (NorenApi.py place_order) sends blprc for H, blprc and bpprc
	// for B, and trailprc for either when it is not 0.
	switch o.Product {
	case "H":
		j["blprc"] = FormatPrice(o.BookLoss, o.Decimals)
	case "B":
		j["blprc"] = FormatPrice(o.BookLoss, o.Decimals)
		j["bpprc"] = FormatPrice(o.BookProfit, o.Decimals)
	}
	if (o.Product == "H" || o.Product == "B") && o.Trail > 0 {
		j["trailprc"] = FormatPrice(o.Trail, o.Decimals)
	}
	var res struct {
		OrderNo string `json:"norenordno"`
	}
	if err := c.object(ctx, "PlaceOrder", a, j, false, &res); err != nil {
		return "", err
	}
	if res.OrderNo == "" {
		return "", envelope.New(envelope.OutcomeUnknown, "PlaceOrder: Shoonya answered Ok without an order number; check get_order_book before repeating").WithCause(ErrOutcomeUnknown)
	}
	return res.OrderNo, nil
}

func priceStr(prctyp string, p float64, decimals int) string {
	if prctyp == "MKT" || prctyp == "SL-MKT" {
		return "0"
	}
	return FormatPrice(p, decimals)
}

// ModifyRequest is ModifyOrder's payload. Qty is the total order quantity.
type ModifyRequest struct {
	OrderNo   string
	Exch      string
	TSym      string
	Qty       int
	PriceType string
	Price     float64
	Trigger   float64
	Decimals  int // see OrderRequest.Decimals
}

// ModifyOrder sends ModifyOrder once and returns the order number (Noren's "result").
func (c *Client) ModifyOrder(ctx context.Context, a *Auth, m ModifyRequest) (string, error) {
	j := map[string]any{
		"ordersource": "API", "uid": a.UID, "actid": a.ActID, "norenordno": m.OrderNo,
		"exch": m.Exch, "tsym": QuoteSymbol(m.TSym), "qty": itoa(m.Qty), "prctyp": m.PriceType,
		"prc": priceStr(m.PriceType, m.Price, m.Decimals),
	}
	if isStop(m.PriceType) {
		j["trgprc"] = FormatPrice(m.Trigger, m.Decimals)
	}
	var res struct {
		Result string `json:"result"`
	}
	if err := c.object(ctx, "ModifyOrder", a, j, false, &res); err != nil {
		return "", err
	}
	return res.Result, nil
}

// CancelOrder sends CancelOrder once.
func (c *Client) CancelOrder(ctx context.Context, a *Auth, orderNo string) (string, error) {
	var res struct {
		Result string `json:"result"`
	}
	err := c.object(ctx, "CancelOrder", a, map[string]any{"ordersource": "API", "uid": a.UID, "norenordno": orderNo}, false, &res)
	return res.Result, err
}

// OrderBook lists today's orders (empty book → empty list).
func (c *Client) OrderBook(ctx context.Context, a *Auth) ([]Order, error) {
	return list[Order](ctx, c, "OrderBook", a, map[string]any{"ordersource": "API", "uid": a.UID})
}

// TradeBook lists today's fills.
func (c *Client) TradeBook(ctx context.Context, a *Auth) ([]Trade, error) {
	return list[Trade](ctx, c, "TradeBook", a, map[string]any{"ordersource": "API", "uid": a.UID, "actid": a.ActID})
}

// Positions lists net positions.
func (c *Client) Positions(ctx context.Context, a *Auth) ([]Position, error) {
	return list[Position](ctx, c, "PositionBook", a, map[string]any{"uid": a.UID, "actid": a.ActID})
}

// Holdings lists demat holdings for product prd ("C" by default).
func (c *Client) Holdings(ctx context.Context, a *Auth, prd string) ([]Holding, error) {
	if prd == "" {
		prd = "C"
	}
	return list[Holding](ctx, c, "Holdings", a, map[string]any{"uid": a.UID, "actid": a.ActID, "prd": prd})
}

// Limits returns funds and margins.
func (c *Client) Limits(ctx context.Context, a *Auth) (Limits, error) {
	var l Limits
	err := c.object(ctx, "Limits", a, map[string]any{"uid": a.UID, "actid": a.ActID}, true, &l)
	return l, err
}

// SearchScrip searches instruments ("no data" → empty list). stext is
// quote_plus'd like tsym (NorenApi.py searchscrip).
func (c *Client) SearchScrip(ctx context.Context, a *Auth, exch, text string) ([]Scrip, error) {
	return list[Scrip](ctx, c, "SearchScrip", a, map[string]any{"uid": a.UID, "exch": exch, "stext": QuoteSymbol(text)})
}

// GetQuotes returns one instrument's quote.
func (c *Client) GetQuotes(ctx context.Context, a *Auth, exch, token string) (Quote, error) {
	var q Quote
	err := c.object(ctx, "GetQuotes", a, map[string]any{"uid": a.UID, "exch": exch, "token": token}, true, &q)
	return q, err
}

// GetOptionChain returns the option legs around strike (cnt strikes each side).
func (c *Client) GetOptionChain(ctx context.Context, a *Auth, exch, tsym string, strike float64, cnt int) ([]Scrip, error) {
	var res struct {
		Values []Scrip `json:"values"`
	}
	err := c.object(ctx, "GetOptionChain", a, map[string]any{
		"uid": a.UID, "exch": exch, "tsym": QuoteSymbol(tsym), "strprc": formatFloat(strike), "cnt": itoa(cnt),
	}, true, &res)
	if IsNoData(err) {
		return []Scrip{}, nil
	}
	return res.Values, err
}

// TPSeries returns intraday candles between st and et (epoch seconds);
// interval is minutes: 1, 3, 5, 10, 15, 30, 60, 120 or 240.
func (c *Client) TPSeries(ctx context.Context, a *Auth, exch, token string, st, et int64, interval string) ([]Candle, error) {
	j := map[string]any{"ordersource": "API", "uid": a.UID, "exch": exch, "token": token, "st": i64(st), "intrv": interval}
	if et > 0 {
		j["et"] = i64(et)
	}
	body, err := c.postAs(ctx, "TPSeries", a, j, true, true)
	if err != nil {
		return nil, err
	}
	return DecodeList[Candle]("TPSeries", body)
}

// EODChartData returns daily candles for sym ("NSE:RELIANCE-EQ") between
// from and to (epoch s). sym is sent as the SDK sends it (NorenApi.py
// get_daily_price_series: not quote_plus'd; index names carry spaces, e.g.
// "NSE:Nifty 50"); a '&' in it still never reaches the body raw, because the
// JSON encoder writes it as \u0026 (openalgo escapes '&' that way on the data
// routes, broker/shoonya/api/data.py).
func (c *Client) EODChartData(ctx context.Context, a *Auth, sym string, from, to int64) ([]Candle, error) {
	body, err := c.postAs(ctx, "EODChartData", a, map[string]any{"uid": a.UID, "sym": sym, "from": i64(from), "to": i64(to)}, true, true)
	if err != nil {
		return nil, err
	}
	return DecodeJSONStrings[Candle]("EODChartData", body)
}
