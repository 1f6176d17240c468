package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// The day these tests live on: two weeks before gpt-5-nano shuts down
// (2026-12-11, OpenAI's deprecations page).
var nov27 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// TestDefaultModelExists: the default is OpenAI's recommended replacement
// for gpt-5-nano, and the fake knows it (no shutdown date).
func TestDefaultModelExists(t *testing.T) {
	e := start(t, setup{clock: clock.NewFake(nov27)})
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.Model != "gpt-6-luna" || caps.Server.ModelShutdown != "none announced" || len(caps.Warnings) != 0 {
		t.Errorf("%+v", caps)
	}
	res := e.search(t, q("UAE central bank"))
	if res.IsError || e.fake.LastBody()["model"] != "gpt-6-luna" {
		t.Fatalf("%s", servetest.Text(res))
	}
}

// TestShutdownWarning: within 30 days of the shutdown date read from
// GET /v1/models/{id}, get_search_capabilities and the log warn with the
// setting and the replacement; the date is asked once, at start-up, not by
// searches.
func TestShutdownWarning(t *testing.T) {
	e := start(t, setup{clock: clock.NewFake(nov27), extra: []string{"--model", "gpt-5-nano", "--cache-ttl", "0"}})
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.ModelShutdown != "2026-12-11" || len(caps.Warnings) != 1 ||
		!strings.Contains(caps.Warnings[0], "2026-12-11 (in 14 days)") || !strings.Contains(caps.Warnings[0], "WEB_SEARCH_MODEL=gpt-6-luna") {
		t.Errorf("%+v", caps)
	}
	for i := range 3 {
		if res := e.search(t, q(fmt.Sprint("query number ", i))); res.IsError {
			t.Fatal(servetest.Text(res))
		}
	}
	e.conn.Call(t, "get_search_capabilities", nil)
	if n := e.fake.ModelReads(); n != 1 {
		t.Errorf("GET /v1/models/{id} asked %d times; want once at start-up (cached a day, never per search)", n)
	}
	if logs := e.conn.Logs(); !strings.Contains(logs, "OpenAI shuts gpt-5-nano down on 2026-12-11") {
		t.Errorf("no shutdown warning in the log:\n%s", logs)
	}
}

// TestNoWarningFarFromShutdown: 45 days before, nothing to warn about yet.
func TestNoWarningFarFromShutdown(t *testing.T) {
	oct27 := nov27.AddDate(0, -1, 0)
	e := start(t, setup{clock: clock.NewFake(oct27), extra: []string{"--model", "gpt-5-nano"}})
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.ModelShutdown != "2026-12-11" || len(caps.Warnings) != 0 {
		t.Errorf("%+v", caps)
	}
}

// TestShutDownModel: after the shutdown date the API answers 404
// model_not_found; the search fails once (not retried) naming the setting
// and OpenAI's recommended replacement, and the capabilities say so.
func TestShutDownModel(t *testing.T) {
	dec12 := time.Date(2026, 12, 12, 9, 0, 0, 0, time.UTC)
	e := start(t, setup{clock: clock.NewFake(dec12), extra: []string{"--model", "gpt-5-nano", "--cache-ttl", "0"}})
	before := e.fake.Count()
	b := servetest.ErrorBody(t, e.search(t, q("UAE central bank")))
	if b.Code != envelope.NotFound || b.Retryable || !strings.Contains(b.Message, "WEB_SEARCH_MODEL=gpt-6-luna") ||
		!strings.Contains(b.Message, "model_not_found") || e.fake.Count()-before != 1 {
		t.Errorf("%+v after %d requests", b, e.fake.Count()-before)
	}
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if caps.Server.ModelShutdown != "shut down" || len(caps.Warnings) != 1 || !strings.Contains(caps.Warnings[0], "WEB_SEARCH_MODEL=gpt-6-luna") {
		t.Errorf("%+v", caps)
	}
}

// TestEffortRules: minimal never goes out with web_search (the API answers
// 400, param tools) — it is sent as low and the capabilities say so; none is
// sent explicitly (omitting reasoning means the model's slower default).
func TestEffortRules(t *testing.T) {
	for _, tc := range []struct{ set, sent, note string }{
		{"minimal", "low", "minimal is sent as low"},
		{"none", "none", ""},
		{"medium", "medium", ""},
	} {
		t.Run(tc.set, func(t *testing.T) {
			e := start(t, setup{extra: []string{"--reasoning-effort", tc.set}})
			if res := e.search(t, q("UAE central bank")); res.IsError {
				t.Fatal(servetest.Text(res))
			}
			rs, _ := e.fake.LastBody()["reasoning"].(map[string]any)
			if rs == nil || rs["effort"] != tc.sent {
				t.Errorf("reasoning %v, want effort %s", rs, tc.sent)
			}
			caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
			if !strings.HasPrefix(caps.Server.Effort, tc.sent) || !strings.Contains(caps.Server.Effort, tc.note) {
				t.Errorf("capabilities effort %q", caps.Server.Effort)
			}
		})
	}
}

// TestSourcesOnlyCostsLess: includeAnswers:false sends a different, cheaper
// request (sources-only instructions, a smaller max_output_tokens), not the
// full request with its answer dropped afterwards.
func TestSourcesOnlyCostsLess(t *testing.T) {
	e := start(t, setup{extra: []string{"--cache-ttl", "0"}})
	e.search(t, q("UAE central bank"))
	full := e.fake.LastBody()
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank", "includeAnswers", false)))
	lean := e.fake.LastBody()
	if lean["max_output_tokens"].(float64) >= full["max_output_tokens"].(float64) || lean["instructions"] == full["instructions"] ||
		!strings.Contains(lean["instructions"].(string), "list only the sources") {
		t.Errorf("full %v / %v\nsources-only %v / %v", full["max_output_tokens"], full["instructions"], lean["max_output_tokens"], lean["instructions"])
	}
	if out.Answer != "" || len(out.Citations) == 0 || out.Citations[0].Snippet == "" {
		t.Errorf("%+v", out)
	}
}

// TestOutputRoom: max_output_tokens leaves a normal answer room (reasoning
// counts against it); a caller-set small cap runs out and is retried once.
func TestOutputRoom(t *testing.T) {
	e := start(t, setup{extra: []string{"--cache-ttl", "0"}})
	e.search(t, q("UAE central bank"))
	if m := e.fake.LastBody()["max_output_tokens"].(float64); m < 8000 {
		t.Errorf("max_output_tokens %v", m)
	}
	// 1,000 is less than the fake's 1,187 output tokens: incomplete, then
	// asked again with three times the room, which suffices.
	small := start(t, setup{extra: []string{"--cache-ttl", "0", "--max-output-tokens", "1000"}})
	before := small.fake.Count()
	out := servetest.Decode[tools.SearchOut](t, small.search(t, q("UAE central bank")))
	// Both requests are billed: their usage adds up (the fake reports 8,412
	// input tokens and one search per answer).
	if u := out.Trace.Usage; small.fake.Count()-before != 2 || u.Requests != 2 || u.InputTokens != 2*8412 || u.BilledSearches != 2 ||
		!out.Complete || small.fake.LastBody()["max_output_tokens"] != float64(3000) {
		t.Errorf("%d requests, %+v", small.fake.Count()-before, out.Trace.Usage)
	}
}

// TestHundredDomains: the API takes up to 100 allowed domains.
func TestHundredDomains(t *testing.T) {
	e := start(t, setup{})
	ds := make([]any, 100)
	for i := range ds {
		ds[i] = fmt.Sprintf("site%d.example.com", i)
	}
	if res := e.search(t, q("UAE central bank", "allowedDomains", ds)); res.IsError {
		t.Fatal(servetest.Text(res))
	}
	f := e.fake.LastBody()["tools"].([]any)[0].(map[string]any)["filters"].(map[string]any)
	if n := len(f["allowed_domains"].([]any)); n != 100 {
		t.Errorf("%d domains sent", n)
	}
	res := e.search(t, q("UAE central bank", "allowedDomains", append(ds, "one-too-many.com")))
	if !res.IsError {
		t.Error("101 domains accepted")
	}
}

// TestFinalAnswerOnly: the model's commentary ("I'm going to use the web
// search tool…") never reaches the answer.
func TestFinalAnswerOnly(t *testing.T) {
	e := start(t, setup{})
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank")))
	if strings.Contains(out.Answer, "going to use the web search tool") || !strings.HasPrefix(out.Answer, "Here is what current reporting says") {
		t.Errorf("answer: %s", out.Answer)
	}
}

// TestMaxResultsLeavesNoUncitedClaim: the default answer cites 9 sources;
// with maxResults 3 the claims of sources 4–9 go with their citations, and
// the lead-in of their list with them.
func TestMaxResultsLeavesNoUncitedClaim(t *testing.T) {
	e := start(t, setup{})
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank", "maxResults", 3)))
	for _, claim := range []string{"overnight deposit facility", "variable-rate mortgages", "Saudi Arabia, Qatar", "Inflation eased"} {
		if strings.Contains(out.Answer, claim) {
			t.Errorf("the claim %q stays without its (cut) citation:\n%s", claim, out.Answer)
		}
	}
	// The list those claims were in goes with its lead-in: no "Further
	// reading:" with nothing after it.
	if strings.Contains(out.Answer, "Further reading") || strings.HasSuffix(out.Answer, ":") {
		t.Errorf("a lead-in is left without what it introduced:\n%s", out.Answer)
	}
	if len(out.Citations) != 3 || !strings.Contains(out.Answer, "Emirates NBD") || !strings.Contains(out.Answer, "first reported on Wednesday afternoon") {
		t.Errorf("%d citations:\n%s", len(out.Citations), out.Answer)
	}
}
