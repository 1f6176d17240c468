package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// replicas are independently built chartimg servers in front of one fake
// chart-img, sharing a real redis-server through MCPFLEET_REDIS_URL when
// redisURL is set (else each keeps its limits and caches in memory).
type replicas struct {
	conns []*servetest.Conn
	fake  *fake.Server
}

type replicaSetup struct {
	n        int
	redisURL string
	plan     string
	dailyMax int
	timeout  string // --timeout; "" = default
}

func startReplicas(t *testing.T, s replicaSetup) *replicas {
	t.Helper()
	f := fake.New(fake.Options{Keys: map[string]string{"test-key": "PRO", "basic-key": "BASIC"}})
	base, stop := f.Start()
	t.Cleanup(stop)
	key := "test-key"
	if s.plan == "BASIC" {
		key = "basic-key"
	}
	t.Setenv("CHART_IMG_API_KEY", key)
	t.Setenv("MCPFLEET_REDIS_URL", s.redisURL)
	args := []string{"--api-url", base, "--docs-url", base + "/", "--plan", s.plan}
	if s.timeout != "" {
		args = append(args, "--timeout", s.timeout)
	}
	r := &replicas{fake: f}
	for i := 0; i < s.n; i++ {
		cfg := &tools.Config{Retries: -1, RetryWait: 20 * time.Millisecond, DailyMax: s.dailyMax}
		r.conns = append(r.conns, servetest.New(t, app(cfg), args...))
	}
	return r
}

func redisURL(srv *redistest.Server) string { return "redis://" + srv.Addr() + "/0" }

// Calls alternate between two replicas; each asks for another exchange's
// symbols, so no cache can answer and every admitted call reaches chart-img.
func TestReplicasSharePlanLimit(t *testing.T) {
	srv := redistest.StartServer(t)
	exchanges := []string{"BINANCE", "COINBASE", "KRAKEN", "NASDAQ", "NYSE", "FX"}
	cases := []struct {
		name     string
		shared   bool
		plan     string
		dailyMax int
		timeout  string
		admitted int // in total, over both replicas
		message  string
		minRetry time.Duration
		maxRetry time.Duration
	}{
		{name: "daily maximum is one quota", shared: true, plan: "PRO", dailyMax: 4, admitted: 4,
			message: "daily maximum of 4", minRetry: 23 * time.Hour, maxRetry: 24 * time.Hour},
		// BASIC: 1/s with a burst of 3; the deadline is too short to wait a second.
		{name: "per-second burst is one bucket", shared: true, plan: "BASIC", timeout: "300ms", admitted: 3,
			message: "allows 1 requests per second", minRetry: time.Millisecond, maxRetry: time.Second},
		// Without Redis each replica counts alone: twice the quota reaches chart-img.
		{name: "memory: each replica its own quota", plan: "PRO", dailyMax: 2, admitted: 4,
			message: "daily maximum of 2", minRetry: 23 * time.Hour, maxRetry: 24 * time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := ""
			if tc.shared {
				url = redisURL(srv)
				// a fresh quota per case: the cases share one API key
				if err := srv.NewClient(t).FlushAll(context.Background()).Err(); err != nil {
					t.Fatal(err)
				}
			}
			r := startReplicas(t, replicaSetup{n: 2, redisURL: url, plan: tc.plan, dailyMax: tc.dailyMax, timeout: tc.timeout})
			admitted := 0
			for i, ex := range exchanges {
				res := r.conns[i%2].Call(t, "get_symbols", map[string]any{"exchange": ex})
				if !res.IsError {
					admitted++
					continue
				}
				b := servetest.ErrorBody(t, res)
				if b.Code != envelope.RateLimited || !b.Retryable || b.RetryAfterS == nil || !strings.Contains(b.Message, tc.message) {
					t.Fatalf("call %d (replica %d): %+v", i, i%2, b)
				}
				if d := time.Duration(*b.RetryAfterS * float64(time.Second)); d < tc.minRetry || d > tc.maxRetry {
					t.Errorf("call %d: retry_after_s %v, want %v..%v", i, d, tc.minRetry, tc.maxRetry)
				}
			}
			if admitted != tc.admitted {
				t.Errorf("admitted %d calls in total, want %d", admitted, tc.admitted)
			}
			if n := r.fake.Count(fake.RouteSymbols); n != tc.admitted {
				t.Errorf("chart-img received %d requests, want %d", n, tc.admitted)
			}
		})
	}
}

// A cache filled by replica A answers replica B without a request upstream.
func TestReplicasShareCaches(t *testing.T) {
	srv := redistest.StartServer(t)
	cases := []struct {
		tool   string
		args   map[string]any
		route  string
		cached func(t *testing.T, res *mcp.CallToolResult) bool
	}{
		{"get_exchanges", nil, fake.RouteList, func(t *testing.T, res *mcp.CallToolResult) bool {
			out := servetest.Decode[tools.ExchangesOut](t, res)
			return out.Cached && out.Count > 30
		}},
		{"get_symbols", map[string]any{"exchange": "NASDAQ", "search": "apple"}, fake.RouteSymbols, func(t *testing.T, res *mcp.CallToolResult) bool {
			out := servetest.Decode[tools.SymbolsOut](t, res)
			return out.Cached && out.Count == 1 && out.Symbols[0].FullSymbol == "NASDAQ:AAPL"
		}},
		{"fetch_chart_documentation", map[string]any{"section": "indicators"}, fake.RouteDocs, func(t *testing.T, res *mcp.CallToolResult) bool {
			out := servetest.Decode[tools.DocsOut](t, res)
			return out.Source == "cache" && len(out.Indicators) == 92
		}},
	}
	r := startReplicas(t, replicaSetup{n: 2, redisURL: redisURL(srv), plan: "PRO"})
	a, b := r.conns[0], r.conns[1]
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			if res := a.Call(t, tc.tool, tc.args); res.IsError || tc.cached(t, res) {
				t.Fatalf("replica A: %s", servetest.Text(res))
			}
			if n := r.fake.Count(tc.route); n != 1 {
				t.Fatalf("replica A: chart-img asked %d times", n)
			}
			for i := 0; i < 2; i++ {
				if res := b.Call(t, tc.tool, tc.args); res.IsError || !tc.cached(t, res) {
					t.Fatalf("replica B, call %d: not served from the shared cache: %s", i, servetest.Text(res))
				}
			}
			if n := r.fake.Count(tc.route); n != 1 {
				t.Errorf("replica B reached chart-img: %d requests in all", n)
			}
		})
	}
	keys, err := srv.NewClient(t).Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "chartimg:cache:") && !strings.HasPrefix(k, "chartimg:rl:") || strings.Contains(k, "test-key") {
			t.Errorf("Redis key %q: want the chartimg:cache: / chartimg:rl: prefixes and no raw API key", k)
		}
	}
}

// Redis going away after start-up fails closed: a clear retryable error and
// nothing sent to chart-img; the docs (no quota) still answer.
func TestRedisGoneFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t)
	r := startReplicas(t, replicaSetup{n: 1, redisURL: redisURL(srv), plan: "PRO"})
	_ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err() // the connection drops: no answer expected
	cases := []struct {
		tool  string
		args  map[string]any
		route string
	}{
		{"get_exchanges", nil, fake.RouteList},
		{"get_symbols", map[string]any{"exchange": "NASDAQ"}, fake.RouteSymbols},
		{"generate_chart_image", map[string]any{"config": map[string]any{"symbol": "NASDAQ:AAPL"}}, fake.RouteChart},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res := r.conns[0].Call(t, tc.tool, tc.args)
			b := servetest.ErrorBody(t, res)
			if b.Code != envelope.UpstreamUnavailable || !b.Retryable || !strings.Contains(b.Message, "MCPFLEET_REDIS_URL") || !strings.Contains(b.Message, "nothing was sent") {
				t.Fatalf("%+v", b)
			}
			if n := r.fake.Count(tc.route); n != 0 {
				t.Errorf("sent to chart-img %d times without the shared limiter", n)
			}
		})
	}
	d := servetest.Decode[tools.DocsOut](t, r.conns[0].Call(t, "fetch_chart_documentation", map[string]any{"section": "limits"}))
	if d.Source != "live" || len(d.Limits) != 5 {
		t.Errorf("docs without Redis: %s", d.Source)
	}
}
