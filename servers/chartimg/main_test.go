package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	ciclient "github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

const canaryKey = "canary-sk-7Q2mZ9xPw4LrT8vB"

// env is one chartimg server connected through MCP to its own fake chart-img.
type env struct {
	conn *servetest.Conn
	fake *fake.Server
	base string
}

type setup struct {
	key       string // CHART_IMG_API_KEY ("-" for unset)
	plan      string // --plan ("" = PRO, "-" = unset: the plan is unknown)
	retries   int    // 0 = none
	limiter   bool   // client-side plan limiter on
	fakeOpts  fake.Options
	docsURL   string // override --docs-url
	extraArgs []string
}

func start(t *testing.T, s setup) *env {
	t.Helper()
	if s.fakeOpts.Keys == nil {
		s.fakeOpts.Keys = map[string]string{"test-key": "PRO", "basic-key": "BASIC", canaryKey: "PRO"}
	}
	s.fakeOpts.NoRateLimit = !s.limiter
	f := fake.New(s.fakeOpts)
	base, stop := f.Start()
	t.Cleanup(stop)
	switch s.key {
	case "":
		t.Setenv("CHART_IMG_API_KEY", "test-key")
	case "-":
		t.Setenv("CHART_IMG_API_KEY", "")
	default:
		t.Setenv("CHART_IMG_API_KEY", s.key)
	}
	switch s.plan {
	case "":
		s.plan = "PRO"
	case "-":
		s.plan = ""
		t.Setenv("CHART_IMG_PLAN", "")
	}
	if s.docsURL == "" {
		s.docsURL = base + "/"
	}
	retries := s.retries
	if retries == 0 {
		retries = -1
	}
	cfg := &tools.Config{Retries: retries, RetryWait: 20 * time.Millisecond, NoLimiter: !s.limiter}
	args := append([]string{"--api-url", base, "--docs-url", s.docsURL, "--plan", s.plan}, s.extraArgs...)
	return &env{conn: servetest.New(t, app(cfg), args...), fake: f, base: base}
}

func (e *env) call(t *testing.T, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return e.conn.Call(t, tool, args)
}

func TestToolsListedLintedAndReadOnly(t *testing.T) {
	e := start(t, setup{})
	if n := len(e.conn.Tools(t)); n != 7 {
		t.Fatalf("%d tools listed, want 7", n)
	}
	servetest.Lint(t, e.conn.Built.Registry.Tools())
	ro := start(t, setup{extraArgs: []string{"--read-only"}})
	for _, tl := range ro.conn.Tools(t) {
		if tl.Name == "generate_chart_image" || tl.Name == "generate_layout_chart" {
			t.Errorf("read-only mode lists %s", tl.Name)
		}
	}
	if n := len(ro.conn.Tools(t)); n != 5 {
		t.Errorf("read-only lists %d tools, want 5", n)
	}
}

func TestConstructAndValidateThroughMCP(t *testing.T) {
	e := start(t, setup{plan: "BASIC"})
	res := e.call(t, "construct_chart_config", map[string]any{
		"naturalLanguage": "Apple daily with the 50 and 200 day moving averages and RSI 21 over the last year, dark",
		"preferences":     map[string]any{"resolution": "1280x720"},
	})
	out := servetest.Decode[nl.Result](t, res)
	c := out.Config
	if c.Symbol != "NASDAQ:AAPL" || c.Interval != "1D" || c.Range != "1Y" || c.Theme != "dark" || len(c.Studies) != 3 || c.Width != 1280 {
		t.Fatalf("config = %+v", c)
	}
	cfg := map[string]any{"symbol": c.Symbol, "interval": c.Interval, "range": c.Range, "width": c.Width, "height": c.Height,
		"studies": []any{map[string]any{"name": "Moving Average", "input": map[string]any{"length": 50}},
			map[string]any{"name": "Moving Average", "input": map[string]any{"length": 200}},
			map[string]any{"name": "Relative Strength Index", "input": map[string]any{"length": 21}}}}
	v := servetest.Decode[validate.Result](t, e.call(t, "validate_chart_config", map[string]any{"config": cfg}))
	if v.Valid || v.RateLimitCheck.Plan != "BASIC" || v.RateLimitCheck.Resolution.Pass {
		t.Errorf("BASIC (default plan) should reject 1280x720: %+v", v)
	}
	v = servetest.Decode[validate.Result](t, e.call(t, "validate_chart_config", map[string]any{"config": cfg, "planLevel": "PRO"}))
	if !v.Valid || !v.RateLimitCheck.WithinLimits {
		t.Errorf("PRO should accept: %+v", v)
	}
	// schema validation rejects a bad enum before the handler
	bad := e.call(t, "validate_chart_config", map[string]any{"config": cfg, "planLevel": "GOLD"})
	if !bad.IsError {
		t.Error("planLevel GOLD accepted")
	}
}

func imageOf(t *testing.T, res *mcp.CallToolResult) (string, image.Config) {
	t.Helper()
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			raw, err := base64.StdEncoding.DecodeString(ic.Data)
			if err != nil {
				t.Fatal(err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if "image/"+format != ic.MIMEType {
				t.Fatalf("mime %s but %s bytes", ic.MIMEType, format)
			}
			return ic.MIMEType, cfg
		}
	}
	t.Fatalf("no image content in %s", servetest.ResultJSON(res))
	return "", image.Config{}
}

func TestGenerateChartImage(t *testing.T) {
	e := start(t, setup{})
	cfg := map[string]any{"symbol": "BINANCE:BTCUSDT", "interval": "4h", "theme": "dark", "width": 1280, "height": 720,
		"studies": []any{map[string]any{"name": "Relative Strength Index", "input": map[string]any{"length": 14}}}}
	res := e.call(t, "generate_chart_image", map[string]any{"config": cfg})
	mime, ic := imageOf(t, res)
	out := servetest.Decode[tools.ImageOut](t, res)
	if mime != "image/png" || ic.Width != 1280 || ic.Height != 720 || out.Width != 1280 || out.Bytes == 0 || out.Plan != "PRO" || out.URL != "" {
		t.Errorf("png: %s %+v %+v", mime, ic, out)
	}
	if e.fake.LastKey() != "test-key" {
		t.Errorf("x-api-key sent = %q", e.fake.LastKey())
	}
	res = e.call(t, "generate_chart_image", map[string]any{"config": cfg, "format": "jpeg"})
	if mime, _ := imageOf(t, res); mime != "image/jpeg" {
		t.Errorf("jpeg: %s", mime)
	}
	res = e.call(t, "generate_chart_image", map[string]any{"config": cfg, "storage": true})
	st := servetest.Decode[tools.ImageOut](t, res)
	linked := false
	for _, c := range res.Content {
		if rl, ok := c.(mcp.ResourceLink); ok && rl.URI == st.URL {
			linked = true
		}
	}
	if !linked {
		t.Errorf("storage result has no resource link: %s", servetest.ResultJSON(res))
	}
	exp, err := time.Parse(time.RFC3339, st.Expire)
	if !strings.HasPrefix(st.URL, e.base+"/storage/") || err != nil || exp.Sub(clock.MustFromEnv().Now()) < 29*24*time.Hour {
		t.Errorf("storage: %+v", st)
	}
}

// TestGenerateReportsTimeAndQuota: the image result says when it was made
// and, with the plan known and the limiter counting, how much of the plan's
// daily maximum is left after it; with the plan unknown nothing is claimed.
func TestGenerateReportsTimeAndQuota(t *testing.T) {
	e := start(t, setup{key: "pro-key", plan: "PRO", limiter: true, fakeOpts: fake.Options{Keys: map[string]string{"pro-key": "PRO"}}})
	cfg := map[string]any{"symbol": "BINANCE:BTCUSDT"}
	before := time.Now().UTC().Add(-time.Second)
	for i, storage := range []bool{false, false, true} {
		out := servetest.Decode[tools.ImageOut](t, e.call(t, "generate_chart_image", map[string]any{"config": cfg, "storage": storage}))
		at, err := time.Parse(time.RFC3339, out.GeneratedAt)
		if err != nil || at.Before(before) || at.After(time.Now().Add(time.Second)) {
			t.Errorf("call %d: generatedAt = %q", i, out.GeneratedAt)
		}
		if out.DailyLimit != 500 || out.DailyRemaining == nil || *out.DailyRemaining != 500-(i+1) {
			t.Errorf("call %d: dailyLimit %d, dailyRemaining %v; want 500 and %d", i, out.DailyLimit, out.DailyRemaining, 500-(i+1))
		}
	}
	u := start(t, setup{plan: "-"})
	res := u.call(t, "generate_chart_image", map[string]any{"config": cfg})
	if out := servetest.Decode[tools.ImageOut](t, res); out.GeneratedAt == "" || out.DailyRemaining != nil ||
		strings.Contains(servetest.ResultJSON(res), "dailyRemaining") {
		t.Errorf("unknown plan: %s", servetest.ResultJSON(res))
	}
}

func TestGenerateValidatesBeforeSpendingQuota(t *testing.T) {
	e := start(t, setup{plan: "BASIC", key: "basic-key"})
	res := e.call(t, "generate_chart_image", map[string]any{"config": map[string]any{"symbol": "NASDAQ:AAPL", "width": 1920, "height": 1080,
		"studies": []any{map[string]any{"name": "RSI"}}}})
	b := servetest.ErrorBody(t, res)
	if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "no quota was spent") || !strings.Contains(b.Message, "Relative Strength Index") {
		t.Errorf("body = %+v", b)
	}
	if n := e.fake.Count(fake.RouteChart); n != 0 {
		t.Errorf("an invalid config reached chart-img %d times", n)
	}
}

// Every error the fake can make maps to a clear envelope code.
func TestUpstreamErrorsMapToEnvelope(t *testing.T) {
	okCfg := map[string]any{"symbol": "BINANCE:BTCUSDT"}
	cases := []struct {
		name     string
		s        setup
		fault    *fake.Fault
		cfg      map[string]any
		code     envelope.Code
		msg      string
		attempts int // requests that reached the chart route (0 = don't check)
		retry    bool
		final    bool // not retryable, retry_after_s and details.resets_at at the daily reset
	}{
		{name: "missing key", s: setup{key: "-"}, code: envelope.Unauthenticated, msg: "CHART_IMG_API_KEY"},
		{name: "403 Forbidden: bad key", s: setup{key: "wrong-key"}, code: envelope.Unauthenticated, msg: "CHART_IMG_API_KEY"},
		{name: "401", fault: &fake.Fault{Route: fake.RouteChart, Status: 401}, code: envelope.Unauthenticated, msg: "CHART_IMG_API_KEY"},
		{name: "403 resolution limit names the plan", s: setup{key: "basic-key"}, cfg: map[string]any{"symbol": "FX:EURUSD", "width": 1280, "height": 720},
			code: envelope.PermissionDenied, msg: "These are the BASIC limits, but CHART_IMG_PLAN=PRO"},
		{name: "403 parameter limit", s: setup{key: "basic-key"}, cfg: map[string]any{"symbol": "FX:EURUSD",
			"studies": []any{map[string]any{"name": "Volume"}, map[string]any{"name": "VWAP"}, map[string]any{"name": "MACD"}, map[string]any{"name": "Aroon"}}},
			code: envelope.PermissionDenied, msg: "allows 3 combined"},
		{name: "409 session", fault: &fake.Fault{Route: fake.RouteChart, Status: 409}, code: envelope.Conflict, msg: "Session Disconnected"},
		{name: "422 array", fault: &fake.Fault{Route: fake.RouteChart, Status: 422, Body: `[{"value":"X","msg":"must be a supported interval","param":"interval","location":"body"}]`},
			code: envelope.InvalidArgument, msg: "must be a supported interval"},
		{name: "422 message", cfg: map[string]any{"symbol": "NOPE:AAPL"}, code: envelope.InvalidArgument, msg: "Invalid Symbol"},
		{name: "429 retried then rate_limited", s: setup{retries: 2}, fault: &fake.Fault{Route: fake.RouteChart, Status: 429},
			code: envelope.RateLimited, attempts: 3, retry: true},
		{name: "429 daily: once, not retryable, with the reset", s: setup{retries: 2}, fault: &fake.Fault{Route: fake.RouteChart, Status: 429, Message: "Limit Exceeded"},
			code: envelope.RateLimited, msg: "daily request maximum is used up (PRO plan: 500 a day)", attempts: 1, final: true},
		{name: "500 retried then upstream_error", s: setup{retries: 2}, fault: &fake.Fault{Route: fake.RouteChart, Status: 500},
			code: envelope.UpstreamError, msg: "Something Went Wrong", attempts: 3, retry: true},
		{name: "500 once then success", s: setup{retries: 2}, fault: &fake.Fault{Route: fake.RouteChart, Status: 500, Count: 1}, attempts: 2},
		{name: "504", fault: &fake.Fault{Route: fake.RouteChart, Status: 504}, code: envelope.UpstreamUnavailable, retry: true},
		{name: "truncated image", fault: &fake.Fault{Route: fake.RouteChart, Truncate: true}, code: envelope.UpstreamError, msg: "cut off"},
		{name: "malformed image", fault: &fake.Fault{Route: fake.RouteChart, Malformed: true}, code: envelope.UpstreamError, msg: "unreadable"},
		{name: "slow upstream → timeout", s: setup{extraArgs: []string{"--timeout", "300ms"}}, fault: &fake.Fault{Route: fake.RouteChart, LatencyMs: 2000},
			code: envelope.Timeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, tc.s)
			if tc.fault != nil {
				e.fake.SetFault(*tc.fault)
			}
			cfg := tc.cfg
			if cfg == nil {
				cfg = okCfg
			}
			res := e.call(t, "generate_chart_image", map[string]any{"config": cfg})
			if tc.code == "" {
				if res.IsError {
					t.Fatalf("want success, got %s", servetest.Text(res))
				}
			} else {
				b := servetest.ErrorBody(t, res)
				if b.Code != tc.code || !strings.Contains(b.Message, tc.msg) {
					t.Errorf("got %s %q, want %s containing %q", b.Code, b.Message, tc.code, tc.msg)
				}
				if tc.retry && !b.Retryable {
					t.Errorf("%s should be retryable", b.Code)
				}
				if tc.final {
					now := clock.MustFromEnv().Now()
					reset := ciclient.DailyReset(now)
					if b.Retryable || b.RetryAfterS == nil || *b.RetryAfterS > reset.Sub(now).Seconds()+5 || *b.RetryAfterS < reset.Sub(now).Seconds()-60 ||
						b.Details["resets_at"] != reset.Format(time.RFC3339) || !strings.Contains(b.Message, reset.Format(time.RFC3339)) {
						t.Errorf("daily limit: retryable=%v retry_after_s=%v details=%v message=%q, want not retryable until %s", b.Retryable, b.RetryAfterS, b.Details, b.Message, reset)
					}
				}
			}
			if tc.attempts > 0 {
				if n := e.fake.Count(fake.RouteChart); n != tc.attempts {
					t.Errorf("chart requests = %d, want %d", n, tc.attempts)
				}
			}
		})
	}
}

func TestDocsLiveCachedStaleAndSnapshot(t *testing.T) {
	e := start(t, setup{key: "-"}) // the docs need no key
	get := func(args map[string]any) tools.DocsOut {
		return servetest.Decode[tools.DocsOut](t, e.call(t, "fetch_chart_documentation", args))
	}
	d := get(map[string]any{"section": "indicators"})
	if d.Source != "live" || len(d.Indicators) != 92 || d.Parameters != nil || d.Stale {
		t.Fatalf("live: source=%s indicators=%d", d.Source, len(d.Indicators))
	}
	if d = get(map[string]any{"section": "limits"}); d.Source != "cache" || len(d.Limits) != 5 || e.fake.Count(fake.RouteDocs) != 1 {
		t.Fatalf("cache: %+v (docs fetched %d times)", d.Source, e.fake.Count(fake.RouteDocs))
	}
	e.fake.SetDocs([]byte("<html><body><h1>Maintenance</h1></body></html>"))
	d = get(map[string]any{"forceRefresh": true, "section": "parameters"})
	if d.Source != "stale" || !d.Stale || d.Parameters == nil || len(d.Parameters.Intervals) != 22 || !strings.Contains(d.Note, "could not be") {
		t.Fatalf("stale: %+v", d)
	}
	e.fake.SetFault(fake.Fault{Route: fake.RouteDocs, Status: 500})
	if d = get(map[string]any{"forceRefresh": true}); d.Source != "stale" || len(d.Indicators) != 92 {
		t.Fatalf("stale after 500: %s", d.Source)
	}

	off := start(t, setup{})
	off.fake.SetFault(fake.Fault{Route: fake.RouteDocs, Status: 503})
	for i := 0; i < 3; i++ {
		od := servetest.Decode[tools.DocsOut](t, off.call(t, "fetch_chart_documentation", map[string]any{"section": "all"}))
		if od.Source != "snapshot" || !od.Stale || len(od.Indicators) != 92 || len(od.Limits) != 5 || len(od.Exchanges) == 0 {
			t.Fatalf("offline: %s %d", od.Source, len(od.Indicators))
		}
	}
	if n := off.fake.Count(fake.RouteDocs); n != 1 {
		t.Errorf("an unreachable docs site was asked %d times in a row; a failure should be remembered", n)
	}
	off.fake.ClearFaults()
	if od := servetest.Decode[tools.DocsOut](t, off.call(t, "fetch_chart_documentation", map[string]any{"forceRefresh": true})); od.Source != "live" {
		t.Errorf("forceRefresh after recovery: %s", od.Source)
	}
	// with nothing listening at all the snapshot still answers
	none := start(t, setup{docsURL: "http://127.0.0.1:1/"})
	if od := servetest.Decode[tools.DocsOut](t, none.call(t, "fetch_chart_documentation", map[string]any{"section": "limits"})); od.Source != "snapshot" || len(od.Limits) != 5 {
		t.Fatalf("no docs server: %+v", od)
	}
}

func TestExchangesAndSymbols(t *testing.T) {
	e := start(t, setup{})
	res := e.call(t, "get_exchanges", nil)
	out := servetest.Decode[tools.ExchangesOut](t, res)
	list := out.List()
	if out.Count < 30 || len(list) != out.Count || list[0].Type != "crypto" || out.Cached {
		t.Fatalf("exchanges: %d %+v", out.Count, list[:3])
	}
	order := map[string]int{"crypto": 0, "forex": 1, "stock": 2, "index": 3, "futures": 4, "bond": 5, "other": 6}
	sortKey := func(x tools.Exchange) string { // letters and digits of the name, lower case
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, x.Name)
	}
	byID := map[string]tools.Exchange{}
	for i, x := range list {
		byID[x.ID] = x
		if i > 0 {
			p := list[i-1]
			if order[p.Type] > order[x.Type] || p.Type == x.Type && sortKey(p) > sortKey(x) {
				t.Errorf("not sorted: %+v before %+v", p, x)
			}
		}
	}
	if byID["BINANCE"].Type != "crypto" || byID["NASDAQ"].Type != "stock" || byID["FX"].Type != "forex" || byID["SP"].Type != "index" {
		t.Errorf("types: %+v %+v %+v %+v", byID["BINANCE"], byID["NASDAQ"], byID["FX"], byID["SP"])
	}
	// Names only where the id does not spell the name.
	if out.Names["FX"] != "FXCM" || out.Names["SP"] != "S&P Dow Jones Indices" || out.Names["BINANCE"] != "" || out.Names["BINANCEUS"] != "" {
		t.Errorf("names: %v", out.Names)
	}
	// The text lists every exchange, by type then name, for clients that show it.
	text := servetest.Text(res)
	if !strings.HasPrefix(text, fmt.Sprintf("%d exchanges by type (ID=Name where the name differs)\ncrypto: BINANCE, BINANCEUS, ", out.Count)) ||
		!strings.Contains(text, "FX=FXCM") || strings.Count(text, "\n") < 5 || strings.Count(text, ", ")+5 != out.Count {
		t.Errorf("text: %q", text)
	}
	if again := servetest.Decode[tools.ExchangesOut](t, e.call(t, "get_exchanges", nil)); !again.Cached || e.fake.Count(fake.RouteList) != 1 {
		t.Error("second get_exchanges was not served from the cache")
	}

	s := servetest.Decode[tools.SymbolsOut](t, e.call(t, "get_symbols", map[string]any{"exchange": "binance", "search": "bitcoin"}))
	if s.Exchange != "BINANCE" || s.Count != 2 || s.Symbols[0].FullSymbol != "BINANCE:BTCUSDT" || s.Symbols[0].Type != "" {
		t.Errorf("search: %+v", s)
	}
	s = servetest.Decode[tools.SymbolsOut](t, e.call(t, "get_symbols", map[string]any{"exchange": "binance", "search": "bitcoin", "detail": true}))
	if s.Count != 2 || s.Symbols[0].Type != "spot" || s.Symbols[0].Currency != "USDT" {
		t.Errorf("detail: %+v", s)
	}
	s = servetest.Decode[tools.SymbolsOut](t, e.call(t, "get_symbols", map[string]any{"exchange": "BINANCE", "limit": 3}))
	if s.Count != 3 || s.Complete || s.Incomplete == nil || s.Total != 20 || !s.Cached || e.fake.Count(fake.RouteSymbols) != 1 {
		t.Errorf("limit: %+v (symbol fetches %d)", s, e.fake.Count(fake.RouteSymbols))
	}
	b := servetest.ErrorBody(t, e.call(t, "get_symbols", map[string]any{"exchange": "NOWHERE"}))
	if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "get_exchanges") {
		t.Errorf("unknown exchange: %+v", b)
	}
	e.fake.SetFault(fake.Fault{Route: fake.RouteSymbols, Malformed: true})
	b = servetest.ErrorBody(t, e.call(t, "get_symbols", map[string]any{"exchange": "NASDAQ"}))
	if b.Code != envelope.UpstreamError {
		t.Errorf("malformed symbols: %+v", b)
	}
	bad := e.call(t, "get_symbols", map[string]any{"exchange": "NAS DAQ"})
	if !bad.IsError {
		t.Error("exchange with a space accepted")
	}
}

// The client-side limiter keeps BASIC's 1/s with a burst of 3, so the fake never answers 429.
func TestPlanLimiterPacesRequests(t *testing.T) {
	// retries: under a loaded machine the fake may still see two requests closer
	// than the client sent them; its 429 carries Retry-After and is retried.
	e := start(t, setup{key: "basic-key", plan: "BASIC", limiter: true, retries: 2})
	begin := time.Now()
	for _, ex := range []string{"BINANCE", "NASDAQ", "FX", "NYSE", "OANDA"} {
		if res := e.call(t, "get_symbols", map[string]any{"exchange": ex}); res.IsError {
			t.Fatalf("%s: %s", ex, servetest.Text(res))
		}
	}
	if d := time.Since(begin); d < 1500*time.Millisecond {
		t.Errorf("5 requests on BASIC took %v; the limiter should pace them (burst 3, then 1/s)", d)
	}
}

func TestCanaryKeyNeverLeaks(t *testing.T) {
	e := start(t, setup{key: canaryKey, retries: 1})
	var outs []string
	for _, f := range []*fake.Fault{nil, {Route: fake.RouteChart, Status: 500}, {Route: fake.RouteChart, Status: 401}, {Route: fake.RouteChart, LatencyMs: 10}} {
		e.fake.ClearFaults()
		if f != nil {
			e.fake.SetFault(*f)
		}
		outs = append(outs, servetest.ResultJSON(e.call(t, "generate_chart_image", map[string]any{"config": map[string]any{"symbol": "BINANCE:BTCUSDT"}, "storage": true})))
	}
	outs = append(outs, servetest.ResultJSON(e.call(t, "get_exchanges", nil)))
	outs = append(outs, servetest.ResultJSON(e.call(t, "get_symbols", map[string]any{"exchange": "NOWHERE"})))
	outs = append(outs, e.conn.Logs())
	if e.fake.LastKey() != canaryKey {
		t.Fatal("the canary key was not sent")
	}
	servetest.NoSecrets(t, outs, canaryKey)
}

// benchConn is our server (no limiter, quiet) against a fake chart-img for
// the life of the benchmark, with the exchange list already cached.
func benchConn(b *testing.B) *servetest.Conn {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	b.Cleanup(stop)
	b.Setenv("CHART_IMG_API_KEY", "test-key")
	conn := servetest.New(b, app(&tools.Config{NoLimiter: true}), "--api-url", base, "--docs-url", base+"/", "--log-level", "error")
	conn.Call(b, "get_exchanges", nil)
	return conn
}

func BenchmarkGetExchangesCached(b *testing.B) {
	conn := benchConn(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := conn.Call(b, "get_exchanges", nil); res.IsError {
			b.Fatal(servetest.Text(res))
		}
	}
}

func BenchmarkConstructChartConfigMCP(b *testing.B) {
	conn := servetest.New(b, app(&tools.Config{NoLimiter: true}), "--log-level", "error")
	args := map[string]any{"naturalLanguage": "Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark"}
	b.ReportAllocs()
	for b.Loop() {
		conn.Call(b, "construct_chart_config", args)
	}
}

// BenchmarkEchoFloor is the anchor for BenchmarkGetExchangesCached: a bare
// mcp-go server with one echo tool, called through the same in-process client.
func BenchmarkEchoFloor(b *testing.B) {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("msg")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("msg", "")), nil
	})
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"msg": "hi"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// The usual flow: text → config → validate → image, each through MCP.
func TestTextToImageFlow(t *testing.T) {
	e := start(t, setup{plan: "PRO"})
	for _, text := range []string{
		"ETH 4h heikin ashi with bollinger bands (20, 2.5) and RSI 21 past 30 days, dark, 1280x720",
		"Apple daily with 50 and 200 day moving averages, support at 180 and resistance at 200",
		"EUR/USD 15 minute chart with Ichimoku cloud today in jpeg",
	} {
		built := servetest.Decode[nl.Result](t, e.call(t, "construct_chart_config", map[string]any{"naturalLanguage": text}))
		raw, _ := json.Marshal(built.Config)
		var cfg map[string]any
		_ = json.Unmarshal(raw, &cfg)
		v := servetest.Decode[validate.Result](t, e.call(t, "validate_chart_config", map[string]any{"config": cfg}))
		if !v.Valid {
			t.Errorf("%q: %s invalid: %+v", text, raw, v.Errors)
			continue
		}
		res := e.call(t, "generate_chart_image", map[string]any{"config": cfg})
		if res.IsError {
			t.Errorf("%q: %s", text, servetest.Text(res))
			continue
		}
		imageOf(t, res)
	}
}

// Concurrent calls share the caches, the docs knowledge and the limiter safely (-race).
func TestConcurrentCalls(t *testing.T) {
	e := start(t, setup{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"get_exchanges", nil},
		{"get_symbols", map[string]any{"exchange": "NASDAQ", "search": "a"}},
		{"fetch_chart_documentation", map[string]any{"section": "limits"}},
		{"construct_chart_config", map[string]any{"naturalLanguage": "BTC 4h with RSI 21 and 20 EMA last week"}},
		{"validate_chart_config", map[string]any{"config": map[string]any{"symbol": "NASDAQ:AAPL", "interval": "1D"}}},
		{"generate_chart_image", map[string]any{"config": map[string]any{"symbol": "NASDAQ:AAPL"}}},
	}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				c := calls[(w+i)%len(calls)]
				res, err := e.conn.CallCtx(context.Background(), c.tool, c.args)
				switch {
				case err != nil:
					errs <- fmt.Sprintf("%s: protocol error %v", c.tool, err)
				case res.IsError:
					errs <- fmt.Sprintf("%s: %s", c.tool, servetest.Text(res))
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	if n := e.fake.Count(fake.RouteList); n != 1 {
		t.Errorf("exchange list fetched %d times; concurrent callers should share one fetch", n)
	}
}
