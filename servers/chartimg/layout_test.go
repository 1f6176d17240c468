package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// TestLayoutChart: generate_layout_chart against the fake's shared layouts
// (doc.chart-img.com "Shared Layout" and "Shared Layout To Storage").
func TestLayoutChart(t *testing.T) {
	t.Setenv("TRADINGVIEW_SESSION_ID", "")
	t.Setenv("TRADINGVIEW_SESSION_ID_SIGN", "")
	e := start(t, setup{})
	res := e.call(t, "generate_layout_chart", map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"symbol": "OTC:GBTC", "width": 1280, "height": 720, "zoomOut": 2}})
	mime, ic := imageOf(t, res)
	out := servetest.Decode[tools.ImageOut](t, res)
	if mime != "image/png" || ic.Width != 1280 || ic.Height != 720 || out.Symbol != "OTC:GBTC" || out.Bytes == 0 || out.Plan != "PRO" {
		t.Errorf("image: %s %+v %+v", mime, ic, out)
	}
	if n := e.fake.Count(fake.RouteLayout); n != 1 {
		t.Errorf("layout requests = %d", n)
	}
	// the layout's own symbol when none is given; jpeg
	res = e.call(t, "generate_layout_chart", map[string]any{"layoutId": "OKyFXMzN", "config": map[string]any{"format": "jpeg"}})
	if mime, _ := imageOf(t, res); mime != "image/jpeg" {
		t.Errorf("jpeg: %s", mime)
	}
	// storage: {url, etag, size, expire} → url, expire, bytes and a resource link
	res = e.call(t, "generate_layout_chart", map[string]any{"layoutId": "37wLAGgd", "storage": true})
	st := servetest.Decode[tools.ImageOut](t, res)
	exp, err := time.Parse(time.RFC3339, st.Expire)
	if !strings.HasPrefix(st.URL, e.base+"/storage/layout-") || err != nil || exp.Sub(clock.MustFromEnv().Now()) < 29*24*time.Hour || st.Bytes == 0 {
		t.Errorf("storage: %+v", st)
	}
	linked := false
	for _, c := range res.Content {
		if rl, ok := c.(mcp.ResourceLink); ok && rl.URI == st.URL && strings.Contains(rl.Name, "37wLAGgd") {
			linked = true
		}
	}
	if !linked {
		t.Errorf("no resource link: %s", servetest.ResultJSON(res))
	}
	if n := e.fake.Count(fake.RouteLayoutStorage); n != 1 {
		t.Errorf("layout storage requests = %d", n)
	}
}

// TestLayoutChartErrors: bad arguments are refused before any quota is
// spent, and every chart-img answer of the layout routes names its fix.
func TestLayoutChartErrors(t *testing.T) {
	cases := []struct {
		name     string
		s        setup
		session  [2]string
		args     map[string]any
		fault    *fake.Fault
		code     envelope.Code
		msg      string
		attempts int // requests that reached the layout route (-1: don't check)
		retry    bool
	}{
		{name: "no layout id", args: map[string]any{}, code: envelope.InvalidArgument, attempts: 0},
		{name: "layout id with a slash", args: map[string]any{"layoutId": "../x"}, code: envelope.InvalidArgument, attempts: 0},
		{name: "shiftLeft renamed moveLeft", args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"shiftLeft": 3}}, code: envelope.InvalidArgument, msg: "moveLeft", attempts: 0},
		{name: "studies are the layout's own", args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"studies": []any{}}}, code: envelope.InvalidArgument, msg: "layout's own studies", attempts: 0},
		{name: "zoom out of range", args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"zoomIn": 30}}, code: envelope.InvalidArgument, msg: "zoomIn must be a whole number 1..25", attempts: 0},
		{name: "bad interval", args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"interval": "7m"}}, code: envelope.InvalidArgument, msg: "interval", attempts: 0},
		{name: "size over the plan", s: setup{plan: "BASIC", key: "basic-key"}, args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"width": 1280, "height": 720}}, code: envelope.InvalidArgument, msg: "800x600", attempts: 0},
		{name: "watermark below ULTRA", args: map[string]any{"layoutId": "37wLAGgd", "config": map[string]any{"watermark": "mine"}}, code: envelope.InvalidArgument, msg: "ULTRA", attempts: 0},
		{name: "unknown layout → 404", args: map[string]any{"layoutId": "NoSuchId"}, code: envelope.NotFound, msg: "part after /chart/", attempts: 1},
		{name: "private layout without a session → 403 Layout Forbidden", args: map[string]any{"layoutId": "PRIVATE1"}, code: envelope.PermissionDenied, msg: "TRADINGVIEW_SESSION_ID", attempts: 1},
		{name: "private layout with the session", session: [2]string{"tv-session", "tv-sign"}, args: map[string]any{"layoutId": "PRIVATE1"}, attempts: 1},
		{name: "stale session → 409 names the fix", session: [2]string{"tv-session", "old-sign"}, args: map[string]any{"layoutId": "PRIVATE1"}, code: envelope.Conflict, msg: "sessionid_sign cookies into TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_ID_SIGN", attempts: 1},
		{name: "429 retried then rate_limited", s: setup{retries: 2}, args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, Status: 429}, code: envelope.RateLimited, attempts: 3, retry: true},
		{name: "429 daily: sent once", s: setup{retries: 2}, args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, Status: 429, Message: "Limit Exceeded"}, code: envelope.RateLimited, msg: "daily", attempts: 1},
		{name: "500 retried", s: setup{retries: 2}, args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, Status: 500}, code: envelope.UpstreamError, attempts: 3, retry: true},
		{name: "504", args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, Status: 504}, code: envelope.UpstreamUnavailable, retry: true, attempts: 1},
		{name: "malformed image", args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, Malformed: true}, code: envelope.UpstreamError, msg: "unreadable", attempts: 1},
		{name: "storage without a url", args: map[string]any{"layoutId": "37wLAGgd", "storage": true}, fault: &fake.Fault{Route: fake.RouteLayoutStorage, Status: 200, Body: `{"etag":"x"}`}, code: envelope.UpstreamError, msg: "without a url", attempts: -1},
		{name: "slow upstream → timeout", s: setup{extraArgs: []string{"--timeout", "300ms"}}, args: map[string]any{"layoutId": "37wLAGgd"}, fault: &fake.Fault{Route: fake.RouteLayout, LatencyMs: 200000}, code: envelope.Timeout, attempts: -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TRADINGVIEW_SESSION_ID", tc.session[0])
			t.Setenv("TRADINGVIEW_SESSION_ID_SIGN", tc.session[1])
			e := start(t, tc.s)
			if tc.fault != nil {
				e.fake.SetFault(*tc.fault)
			}
			res := e.call(t, "generate_layout_chart", tc.args)
			if tc.code == "" {
				if res.IsError {
					t.Fatalf("want success, got %s", servetest.Text(res))
				}
			} else {
				b := servetest.ErrorBody(t, res)
				if b.Code != tc.code || !strings.Contains(b.Message, tc.msg) {
					t.Errorf("got %s %q, want %s containing %q", b.Code, b.Message, tc.code, tc.msg)
				}
				if tc.retry != b.Retryable && tc.retry {
					t.Errorf("%s should be retryable", b.Code)
				}
			}
			if tc.attempts >= 0 {
				if n := e.fake.Count(fake.RouteLayout) + e.fake.Count(fake.RouteLayoutStorage); n != tc.attempts {
					t.Errorf("layout requests = %d, want %d", n, tc.attempts)
				}
			}
		})
	}
}

// TestTradingViewSessionNeverLeaks: the session cookies reach chart-img and
// appear in no result, error or log line, whatever chart-img answers.
func TestTradingViewSessionNeverLeaks(t *testing.T) {
	const sid, sign = "tvsess-canary-5Jd8Qm2Lx9", "tvsign-canary-Pq7Wz3Kc1"
	t.Setenv("TRADINGVIEW_SESSION_ID", sid)
	t.Setenv("TRADINGVIEW_SESSION_ID_SIGN", sign)
	e := start(t, setup{retries: 1, fakeOpts: fake.Options{TVSessions: fake.TVSession{sid: sign},
		Keys: map[string]string{"test-key": "PRO"}}})
	var outs []string
	for _, f := range []*fake.Fault{nil, {Route: fake.RouteLayout, Status: 500}, {Route: fake.RouteLayout, Status: 409}, {Route: fake.RouteLayout, Status: 403, Message: "Layout Forbidden"}} {
		e.fake.ClearFaults()
		if f != nil {
			e.fake.SetFault(*f)
		}
		outs = append(outs, servetest.ResultJSON(e.call(t, "generate_layout_chart", map[string]any{"layoutId": "PRIVATE1"})))
	}
	if outs[0] == "" || strings.Contains(outs[0], `"isError":true`) {
		t.Fatalf("the private layout was not drawn with the session: %s", outs[0])
	}
	outs = append(outs, e.conn.Logs())
	servetest.NoSecrets(t, outs, sid, sign)
}
