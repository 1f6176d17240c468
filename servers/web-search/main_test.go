package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

const canaryKey = "sk-canary-9Jq2Xv7Lm3Rt8Wp4Zc6"

// env is one web-search server connected through MCP to its own fake OpenAI.
type env struct {
	conn *servetest.Conn
	fake *fake.Server
}

type setup struct {
	key      string // OPENAI_API_KEY; "" = sk-test, "-" = unset
	clock    clock.Clock
	redisURL string
	attempts int
	extra    []string // more flags
}

func start(t testing.TB, s setup) *env {
	t.Helper()
	f := fake.New(fake.Options{Keys: []string{"sk-test", canaryKey}})
	if s.clock != nil {
		f.SetNow(s.clock.Now) // the server's start-up model check sees the same day
	}
	base, stop := f.Start()
	t.Cleanup(stop)
	switch s.key {
	case "":
		t.Setenv("OPENAI_API_KEY", "sk-test")
	case "-":
		t.Setenv("OPENAI_API_KEY", "")
	default:
		t.Setenv("OPENAI_API_KEY", s.key)
	}
	t.Setenv("MCPFLEET_REDIS_URL", s.redisURL)
	cfg := &tools.Config{Clock: s.clock, RetryWait: 10 * time.Millisecond, MaxAttempts: s.attempts}
	args := append([]string{"--base-url", base + "/v1"}, s.extra...)
	return &env{conn: servetest.New(t, app(cfg), args...), fake: f}
}

func (e *env) search(t testing.TB, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return e.conn.Call(t, "search_web", args)
}

func q(query string, kv ...any) map[string]any {
	m := map[string]any{"query": query}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestToolsListedAndLinted(t *testing.T) {
	e := start(t, setup{})
	if n := len(e.conn.Tools(t)); n != 3 {
		t.Fatalf("%d tools listed, want 3", n)
	}
	servetest.Lint(t, e.conn.Built.Registry.Tools())
	ro := start(t, setup{extra: []string{"--read-only"}})
	if n := len(ro.conn.Tools(t)); n != 3 {
		t.Errorf("read-only lists %d tools, want all three (none changes anything)", n)
	}
}

// checkCitations: no tracking left, each range selects its snippet in the
// answer (code points), no duplicate URL.
func checkCitations(t *testing.T, out tools.SearchOut) {
	t.Helper()
	seen := map[string]bool{}
	for i, c := range out.Citations {
		if strings.Contains(c.URL, "utm_") || c.Snippet == "" || c.Title == "" || seen[c.URL] {
			t.Errorf("citation %d: %+v", i, c)
		}
		seen[c.URL] = true
		if out.Answer != "" {
			if !strings.Contains(out.Answer, c.Snippet) {
				t.Errorf("citation %d: snippet %q is not text of the answer", i, c.Snippet)
			}
			if !strings.Contains(out.Answer, fmt.Sprintf("[%d]", i+1)) {
				t.Errorf("answer has no marker [%d]", i+1)
			}
		}
	}
	if strings.Contains(out.Answer, fmt.Sprintf("[%d]", len(out.Citations)+1)) {
		t.Errorf("answer refers to a citation that was cut: %s", out.Answer)
	}
	for _, u := range out.Trace.SourcesConsulted {
		if strings.Contains(u, "utm_") || seen[u] {
			t.Errorf("sources_consulted has %s", u)
		}
	}
}

// cited is citation i's text: its snippet.
func cited(out tools.SearchOut, i int) string { return out.Citations[i].Snippet }

func TestSearchScenarios(t *testing.T) {
	e := start(t, setup{extra: []string{"--cache-ttl", "0"}})
	cases := []struct {
		name     string
		scenario string
		args     map[string]any
		check    func(t *testing.T, out tools.SearchOut)
	}{
		{"interleaved reasoning and searches, default maxResults", fake.Completed, q("UAE central bank rate decision"), func(t *testing.T, out tools.SearchOut) {
			// One search, one page opened, one find in page: only the search is billed.
			if u := out.Trace.Usage; len(out.Citations) != 5 || u.BilledSearches != 1 || u.PageOpens != 1 || u.FindInPage != 1 || u.InputTokens == 0 || u.Requests != 1 {
				t.Errorf("citations %d usage %+v", len(out.Citations), out.Trace.Usage)
			}
			c := out.Citations[0]
			if c.URL != "https://www.reuters.com/world/middle-east/uae-central-bank-holds-rates-2026-11-20/" ||
				cited(out, 0) != "**Decision** — The Central Bank of the UAE kept its base rate at 4.40 % on Wednesday, tracking the U.S. Federal Reserve’s hold." {
				t.Errorf("first citation %+v", c)
			}
			if strings.Count(out.Answer, "[1]") != 2 {
				t.Errorf("the Reuters page (cited twice, utm differing) should be [1] twice: %s", out.Answer)
			}
			if out.Citations[1].URL != "https://www.thenationalnews.com/business/markets/2026/11/20/dfm-index-rises-after-rate-decision/" {
				t.Errorf("utm_source and utm_medium not both stripped: %s", out.Citations[1].URL)
			}
			if want := []string{"UAE central bank rate decision", "UAE central bank rate decision today"}; fmt.Sprint(out.Trace.Queries) != fmt.Sprint(want) {
				t.Errorf("queries %v", out.Trace.Queries)
			}
			if !strings.Contains(strings.Join(out.Trace.SourcesConsulted, " "), "https://www.imf.org/en/Countries/ARE") {
				t.Errorf("sources_consulted %v", out.Trace.SourcesConsulted)
			}
			if out.CallsRemaining == nil || *out.CallsRemaining != 19 {
				t.Errorf("calls_remaining %v", out.CallsRemaining)
			}
		}},
		{"more sources than maxResults 8", fake.Completed, q("UAE rates", "maxResults", 8), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 8 || strings.Contains(out.Answer, "[9]") {
				t.Errorf("%d citations: %s", len(out.Citations), out.Answer)
			}
			if c := out.Citations[7]; c.URL != "https://www.ft.com/content/4f2c9a1e-gulf-rates" {
				t.Errorf("text fragment and utm not stripped: %s", c.URL)
			}
		}},
		{"citations only", fake.Completed, q("UAE rates", "includeAnswers", false, "freshnessHours", 24), func(t *testing.T, out tools.SearchOut) {
			if out.Answer != "" || len(out.Citations) != 5 || out.Citations[0].Snippet == "" {
				t.Errorf("answer %q citations %+v", out.Answer, out.Citations)
			}
		}},
		{"gpt-4o shape without reasoning", fake.Plain, q("gulf markets this week"), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 3 || out.Trace.Usage.BilledSearches != 2 || fmt.Sprint(out.Trace.Queries) != "[gulf markets this week]" {
				t.Errorf("%+v", out)
			}
		}},
		{"web_search_call without action", fake.NoAction, q("tokyo startup week"), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 2 || out.Trace.Usage.BilledSearches != 2 || len(out.Trace.Queries) != 0 || len(out.Trace.SourcesConsulted) != 0 {
				t.Errorf("%+v", out)
			}
		}},
		{"no citations", fake.NoCitations, q("what is a central bank"), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 0 || out.Answer == "" || out.Trace.Usage.BilledSearches != 0 {
				t.Errorf("%+v", out)
			}
		}},
		{"emoji before citations, code-point offsets", fake.Astral, q("rashid rover launch"), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 2 || cited(out, 0) != "🚀 Launch update 🛰️: the 𝔘AE’s Rashid rover team confirmed a new launch window for 2027." ||
				// envelope.CleanThirdParty drops the zero-width joiner of 👩‍🚀 (a
				// format character) from the answer and the snippet alike.
				cited(out, 1) != "👩🚀 Crew training continues in Houston 🇺🇸." {
				t.Errorf("%+v", out.Citations)
			}
		}},
		{"emoji before citations, UTF-16 offsets", fake.AstralUTF16, q("rashid rover launch"), func(t *testing.T, out tools.SearchOut) {
			if len(out.Citations) != 2 || cited(out, 0) != "🚀 Launch update 🛰️: the 𝔘AE’s Rashid rover team confirmed a new launch window for 2027." ||
				strings.Contains(out.Answer, "](") {
				t.Errorf("%+v\n%s", out.Citations, out.Answer)
			}
		}},
		{"incomplete once: asked again with more room", fake.Incomplete, q("UAE rates"), func(t *testing.T, out tools.SearchOut) {
			if !out.Complete || len(out.Citations) != 5 || out.Trace.Usage.Requests != 2 || strings.Contains(out.Answer, "expect the next move to") {
				t.Errorf("%+v", out)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.Clear()
			e.fake.Push(fake.Fault{Scenario: tc.scenario, Count: 1})
			out := servetest.Decode[tools.SearchOut](t, e.search(t, tc.args))
			checkCitations(t, out)
			tc.check(t, out)
		})
	}
}

// TestSearchErrors: every error of OpenAI's error-code guide, a failed 200 and
// broken bodies, each to its envelope code, with retries only where safe.
func TestSearchErrors(t *testing.T) {
	e := start(t, setup{extra: []string{"--cache-ttl", "0", "--limit", "1000"}})
	cases := []struct {
		name      string
		faults    []fake.Fault
		code      envelope.Code // "" = success
		retryable bool
		attempts  int
		inMessage string
	}{
		{"200 failed", []fake.Fault{{Scenario: fake.Failed}}, envelope.UpstreamError, true, 1, "status failed, server_error"},
		{"401 invalid_api_key", []fake.Fault{{Scenario: fake.InvalidKey}}, envelope.Unauthenticated, false, 1, "set OPENAI_API_KEY"},
		{"429 insufficient_quota is not retried", []fake.Fault{{Scenario: fake.NoQuota}}, envelope.PermissionDenied, false, 1, "billing"},
		{"429 rate_limit_exceeded then ok (retry-after-ms)", []fake.Fault{{Scenario: fake.RateLimited, Count: 1, RetryAfter: "-", RetryAfterMs: "40"}}, "", false, 2, ""},
		{"429 tokens then ok (x-ratelimit-reset-tokens)", []fake.Fault{{Scenario: fake.TokenLimited, Count: 1}}, "", false, 2, ""},
		{"429 retry-after past the deadline", []fake.Fault{{Scenario: fake.RateLimited, RetryAfter: "30"}}, envelope.RateLimited, true, 1, "rate limit"},
		{"429 rate_limit_exceeded every time", []fake.Fault{{Scenario: fake.RateLimited, RetryAfter: "0.02"}}, envelope.RateLimited, true, 3, "rate limit"},
		{"400 minimal effort with web_search", []fake.Fault{{Scenario: fake.BadRequest}}, envelope.InvalidArgument, false, 1, "WEB_SEARCH_REASONING_EFFORT"},
		{"incomplete twice: a clear error", []fake.Fault{{Scenario: fake.Incomplete}}, envelope.UpstreamError, false, 2, "WEB_SEARCH_MAX_OUTPUT_TOKENS"},
		{"403 region", []fake.Fault{{Scenario: fake.Forbidden}}, envelope.PermissionDenied, false, 1, "unsupported_country_region_territory"},
		{"404 model", []fake.Fault{{Scenario: fake.ModelNotFound}}, envelope.NotFound, false, 1, "WEB_SEARCH_MODEL"},
		{"408", []fake.Fault{{Scenario: fake.RequestTimeout}}, envelope.UpstreamUnavailable, true, 3, "try again"},
		{"409", []fake.Fault{{Scenario: fake.Conflict}}, envelope.UpstreamUnavailable, true, 3, "try again"},
		{"500", []fake.Fault{{Scenario: fake.ServerError}}, envelope.UpstreamError, true, 3, "failed internally"},
		{"500 then ok", []fake.Fault{{Scenario: fake.ServerError, Count: 1}}, "", false, 2, ""},
		{"502", []fake.Fault{{Scenario: fake.BadGateway}}, envelope.UpstreamUnavailable, true, 3, "overloaded"},
		{"502 HTML page", []fake.Fault{{Scenario: fake.HTMLError}}, envelope.UpstreamUnavailable, true, 3, "502"},
		{"503", []fake.Fault{{Scenario: fake.Overloaded}}, envelope.UpstreamUnavailable, true, 3, "overloaded"},
		{"504", []fake.Fault{{Scenario: fake.GatewayTimeout}}, envelope.UpstreamUnavailable, true, 3, "overloaded"},
		{"malformed 200 is not repeated (it was billed)", []fake.Fault{{Scenario: fake.Malformed}}, envelope.UpstreamError, true, 1, "not valid JSON"},
		{"truncated 200 is not repeated", []fake.Fault{{Scenario: fake.Truncated}}, envelope.UpstreamError, true, 1, "cut off"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.Clear()
			for _, f := range tc.faults {
				e.fake.Push(f)
			}
			before := e.fake.Count()
			res := e.search(t, q("UAE central bank"))
			attempts := e.fake.Count() - before
			if attempts != tc.attempts {
				t.Errorf("%d attempts, want %d", attempts, tc.attempts)
			}
			if tc.code == "" {
				servetest.Decode[tools.SearchOut](t, res)
				return
			}
			b := servetest.ErrorBody(t, res)
			if b.Code != tc.code || b.Retryable != tc.retryable || !strings.Contains(b.Message, tc.inMessage) {
				t.Errorf("got %+v", b)
			}
			if strings.Contains(b.Message, "Incorrect API key") || strings.Contains(b.Message, "sk-te") {
				t.Errorf("upstream text about the key was echoed: %s", b.Message)
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	e := start(t, setup{})
	e.search(t, q("latest UAE central bank rate decision", "maxResults", 3, "freshnessHours", 24, "region", "ae",
		"allowedDomains", []any{"https://www.Reuters.com/world", "thenationalnews.com", "reuters.com"}))
	b := e.fake.LastBody()
	tool := b["tools"].([]any)[0].(map[string]any)
	loc := tool["user_location"].(map[string]any)
	filters := tool["filters"].(map[string]any)
	ins := b["instructions"].(string)
	if b["model"] != "gpt-6-luna" || tool["type"] != "web_search" || tool["search_context_size"] != "low" ||
		loc["type"] != "approximate" || loc["country"] != "AE" || fmt.Sprint(filters["allowed_domains"]) != "[reuters.com thenationalnews.com]" ||
		fmt.Sprint(b["include"]) != "[web_search_call.action.sources]" || b["max_tool_calls"] != float64(6) || b["stream"] != true || b["store"] != false ||
		b["reasoning"].(map[string]any)["effort"] != "low" || !strings.Contains(ins, "last 24 hours") || !strings.Contains(ins, "at most 3") ||
		b["input"] != "latest UAE central bank rate decision" {
		t.Errorf("body %v", b)
	}
	if !e.fake.Requests()[0].Authorized {
		t.Error("the Bearer key was not accepted")
	}
	// No region: an approximate location with no country, not the API's US default.
	e.search(t, q("another query"))
	loc = e.fake.LastBody()["tools"].([]any)[0].(map[string]any)["user_location"].(map[string]any)
	if _, has := loc["country"]; has || loc["type"] != "approximate" {
		t.Errorf("user_location without region: %v", loc)
	}
}

func TestBadArgumentsSpendNothing(t *testing.T) {
	e := start(t, setup{})
	cases := []struct {
		args  map[string]any
		field string // "" = rejected by the schema
	}{
		{q("  a   "), "query"},
		{q("ok query", "region", "EU"), "region"},
		{q("ok query", "region", "UK"), "region"},
		{q("ok query", "allowedDomains", []any{"not a host"}), "allowedDomains"},
		{q("ok query", "maxResults", 9), ""},
		{q("ok query", "unknown", 1), ""},
		{map[string]any{}, ""},
		{q(strings.Repeat("x", 401)), ""},
	}
	for i, tc := range cases {
		res := e.search(t, tc.args)
		if !res.IsError {
			t.Errorf("case %d accepted", i)
			continue
		}
		if tc.field != "" {
			if b := servetest.ErrorBody(t, res); b.Code != envelope.InvalidArgument || b.Details["field"] != tc.field {
				t.Errorf("case %d: %+v", i, b)
			}
		}
	}
	if b := servetest.ErrorBody(t, e.search(t, q("ok query", "region", "UK"))); !strings.Contains(b.Message, "GB") {
		t.Errorf("UK should point at GB: %s", b.Message)
	}
	if n := e.fake.Count(); n != 0 {
		t.Errorf("bad arguments reached OpenAI %d times", n)
	}
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Remaining != 20 {
		t.Errorf("bad arguments spent searches: %d left", caps.Remaining)
	}
}

func TestNoAPIKey(t *testing.T) {
	e := start(t, setup{key: "-"})
	b := servetest.ErrorBody(t, e.search(t, q("anything at all")))
	if b.Code != envelope.Unauthenticated || !strings.Contains(b.Message, "OPENAI_API_KEY") || e.fake.Count() != 0 {
		t.Errorf("%+v, %d requests", b, e.fake.Count())
	}
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.APIKeyConfigured || caps.Remaining != 20 {
		t.Errorf("%+v", caps)
	}
}

func TestCapabilities(t *testing.T) {
	e := start(t, setup{extra: []string{"--model", "gpt-5-mini", "--timeout", "12s"}})
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.Model != "gpt-5-mini" || !caps.Server.APIKeyConfigured || caps.PerWindow != 20 || caps.WindowS != 600 || caps.Remaining != 20 ||
		caps.Server.DeadlineS != 12 || caps.Server.CacheTTLS != 120 || caps.Server.Shared || caps.NextFreeAt != "" || len(caps.Server.Parameters) != 5 ||
		!strings.Contains(caps.Server.Parameters["freshnessHours"], "best effort") || !strings.Contains(caps.Server.Retries, "never on insufficient_quota") ||
		caps.Server.MaxToolCalls != 6 || !strings.Contains(caps.Server.Billing, "cut at the deadline") {
		t.Errorf("%+v", caps)
	}
	if e.fake.Count() != 0 {
		t.Error("get_search_capabilities called OpenAI")
	}
}

// TestDeadlineHoldsUnderSlowUpstream: answers slower than the deadline end
// the call with timeout, before the deadline plus slack.
func TestDeadlineHoldsUnderSlowUpstream(t *testing.T) {
	e := start(t, setup{extra: []string{"--timeout", "1500ms", "--cache-ttl", "0"}})
	cases := []struct {
		name   string
		faults []fake.Fault
	}{
		{"every answer slow", []fake.Fault{{LatencyMs: 20000}}},
		{"a 503, then slow", []fake.Fault{{Scenario: fake.Overloaded, Count: 1}, {LatencyMs: 20000}}},
		{"retry-after longer than what is left", []fake.Fault{{Scenario: fake.RateLimited, LatencyMs: 1000, RetryAfter: "1"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.Clear()
			for _, f := range tc.faults {
				e.fake.Push(f)
			}
			begin := time.Now()
			res := e.search(t, q("slow upstream"))
			took := time.Since(begin)
			if took > 1500*time.Millisecond+2*time.Second {
				t.Errorf("returned after %s, deadline 1.5 s", took)
			}
			b := servetest.ErrorBody(t, res)
			if b.Code != envelope.Timeout && b.Code != envelope.RateLimited {
				t.Errorf("%+v", b)
			}
		})
	}
}

// TestTwentyFirstCallRefused: 20 searches in a 10-minute window are admitted,
// the 21st is refused with the exact wait and spends nothing; identical
// repeats come from cache for free; other users are unaffected.
func TestTwentyFirstCallRefused(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)
	c := clock.NewFake(t0)
	e := start(t, setup{clock: c})
	for i := 0; i < 20; i++ {
		c.Set(t0.Add(time.Duration(i) * 25 * time.Second))
		out := servetest.Decode[tools.SearchOut](t, e.search(t, q(fmt.Sprintf("query number %d", i))))
		if out.CallsRemaining == nil || *out.CallsRemaining != 19-i || out.Trace.Cached {
			t.Fatalf("call %d: remaining %v cached %v", i+1, out.CallsRemaining, out.Trace.Cached)
		}
	}
	// An identical repeat within the cache TTL costs nothing.
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("query number 19")))
	if !out.Trace.Cached || e.fake.Count() != 20 {
		t.Fatalf("repeat: cached %v, %d requests", out.Trace.Cached, e.fake.Count())
	}
	c.Set(t0.Add(9*time.Minute + 30*time.Second))
	for k := 0; k < 2; k++ {
		b := servetest.ErrorBody(t, e.search(t, q("the twenty-first")))
		if b.Code != envelope.RateLimited || b.RetryAfterS == nil || *b.RetryAfterS != 30 || !strings.Contains(b.Message, "nothing was spent") ||
			b.Details["next_free_at"] != "2026-11-24T05:10:00Z" {
			t.Fatalf("21st: %+v", b)
		}
	}
	if e.fake.Count() != 20 {
		t.Fatalf("a refused call reached OpenAI: %d requests", e.fake.Count())
	}
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Remaining != 0 || caps.NextFreeAt != "2026-11-24T05:10:00Z" || caps.NextFreeInS != 30 {
		t.Fatalf("caps %+v", caps)
	}
	// Another user has a budget of its own.
	res, err := e.conn.CallCtx(withUser("bob"), "search_web", q("bob's first search"))
	if err != nil || res.IsError {
		t.Fatalf("bob: %v %s", err, servetest.Text(res))
	}
	c.Set(t0.Add(10 * time.Minute)) // the first search leaves the window
	if out := servetest.Decode[tools.SearchOut](t, e.search(t, q("the twenty-first"))); *out.CallsRemaining != 0 {
		t.Fatalf("after the window: %v", *out.CallsRemaining)
	}
}

// TestCanarySecret: the API key never appears in results or logs, on
// success, on every error path, or when OpenAI rejects it.
func TestCanarySecret(t *testing.T) {
	var hay []string
	for _, key := range []string{canaryKey, "sk-canary-REJECTED-4Kd8Fh2Lp9"} {
		e := start(t, setup{key: key, extra: []string{"--cache-ttl", "0", "--limit", "1000"}})
		for _, sc := range []string{"", fake.ServerError, fake.InvalidKey, fake.NoQuota, fake.BadRequest, fake.Malformed, fake.Truncated, fake.Failed} {
			e.fake.Clear()
			if sc != "" {
				e.fake.Push(fake.Fault{Scenario: sc})
			}
			res := e.search(t, q("canary check"))
			hay = append(hay, servetest.ResultJSON(res))
		}
		hay = append(hay, servetest.ResultJSON(e.conn.Call(t, "get_search_capabilities", nil)), e.conn.Logs())
		if !strings.Contains(e.conn.Logs(), "upstream attempt") {
			t.Fatal("debug logs were not captured")
		}
	}
	servetest.NoSecrets(t, hay, canaryKey, "sk-canary-REJECTED-4Kd8Fh2Lp9", "Kd8Fh2Lp9", "9Jq2Xv7Lm3Rt8Wp4Zc6")
}

// TestQueryLengthCountsCharacters: 400 characters of non-ASCII text pass.
func TestQueryLengthCountsCharacters(t *testing.T) {
	e := start(t, setup{})
	query := strings.Repeat("é", 400)
	if utf8.RuneCountInString(query) != 400 {
		t.Fatal("bad fixture")
	}
	servetest.Decode[tools.SearchOut](t, e.search(t, q(query)))
}

func withUser(u string) context.Context { return serve.WithUser(context.Background(), u) }

// TestBudgetPerBearerUser: over streamable HTTP each bearer token's user has
// its own budget, in both protocol eras (the modern one has no session).
func TestBudgetPerBearerUser(t *testing.T) {
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice=tok-alice-1234567890abc,bob=tok-bob-7654321098765zz")
	e := start(t, setup{extra: []string{"--limit", "2", "--cache-ttl", "0"}})
	call := func(c *client.Client, query string) *mcp.CallToolResult {
		var req mcp.CallToolRequest
		req.Params.Name = "search_web"
		req.Params.Arguments = q(query)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	alice := e.conn.HTTPClient(t, "", map[string]string{"Authorization": "Bearer tok-alice-1234567890abc"})
	aliceLegacy := e.conn.HTTPClient(t, mcp.LATEST_LEGACY_PROTOCOL_VERSION, map[string]string{"Authorization": "Bearer tok-alice-1234567890abc"})
	bob := e.conn.HTTPClient(t, "", map[string]string{"Authorization": "Bearer tok-bob-7654321098765zz"})
	if call(alice, "first").IsError || call(aliceLegacy, "second").IsError {
		t.Fatal("alice's first two searches were refused")
	}
	if b := servetest.ErrorBody(t, call(alice, "third")); b.Code != envelope.RateLimited {
		t.Fatalf("alice's third: %+v", b)
	}
	if res := call(bob, "bob's first"); res.IsError {
		t.Fatalf("bob was refused: %s", servetest.Text(res))
	}
}
