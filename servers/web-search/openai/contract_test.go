package openai

// Contract tests: real answers of the Responses API (testdata/contract,
// provenance in SOURCES.md) replayed against the parser and the client,
// separately from the fake.

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func readContract(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "contract", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestContractRecordedAnswers(t *testing.T) {
	cases := []struct {
		file                                 string
		model                                string
		citations, searchCalls, minConsulted int
		billed                               int // search actions only
		queries                              []string
		duplicateCited                       bool // the recording cites one URL twice
	}{
		{file: "gpt-4o-2025-03.json", model: "gpt-4o-2024-07-18", citations: 5, searchCalls: 2, billed: 2, minConsulted: 0,
			queries: []string{"Vercel AI SDK next version features"}},
		{file: "gpt-5-mini-2025-12.json", model: "gpt-5-mini-2025-08-07", citations: 7, searchCalls: 3, billed: 1, minConsulted: 5,
			queries: []string{"tech news today December 5 2025"}, duplicateCited: true},
		{file: "gpt-5.1-2026-02.json", model: "gpt-5.1-2025-11-13", citations: 6, searchCalls: 3, billed: 3, minConsulted: 1},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			r, err := Decode(readContract(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			// Every annotation, sliced by code points, is its marker: the
			// offset unit this parser relies on.
			for _, it := range r.Output {
				for _, p := range it.Content {
					for _, a := range p.Annotations {
						bs, be, ok := CitedSpan(p.Text, a.StartIndex, a.EndIndex, a.URL)
						if !ok || !isMarker(p.Text[bs:be]) || !strings.Contains(p.Text[bs:be], hostOf(a.URL)) {
							t.Errorf("annotation %d..%d is %q", a.StartIndex, a.EndIndex, p.Text[bs:be])
						}
					}
				}
			}
			res := Parse(r)
			if res.Model != tc.model || res.Status != "completed" || res.BilledSearches+res.PageOpens+res.FindInPage != tc.searchCalls {
				t.Errorf("model %q status %q searches %d opens %d finds %d", res.Model, res.Status, res.BilledSearches, res.PageOpens, res.FindInPage)
			}
			if res.BilledSearches != tc.billed {
				t.Errorf("billed searches %d, want %d (only search actions are billed)", res.BilledSearches, tc.billed)
			}
			if len(res.Citations) != tc.citations {
				t.Errorf("%d citations, want %d: %+v", len(res.Citations), tc.citations, res.Citations)
			}
			if len(res.Consulted) < tc.minConsulted {
				t.Errorf("consulted %v", res.Consulted)
			}
			if tc.queries != nil && (len(res.Queries) == 0 || res.Queries[0] != tc.queries[0]) {
				t.Errorf("queries %v", res.Queries)
			}
			out := res.Render(0)
			if strings.Contains(out.Answer, "utm_") || strings.Contains(out.Answer, "([") {
				t.Errorf("answer keeps markers or tracking: %s", out.Answer)
			}
			refs := 0
			for i, c := range out.Citations {
				if strings.Contains(c.URL, "utm_") || c.Title == "" || c.Snippet == "" || !strings.Contains(out.Answer, c.Snippet) {
					t.Errorf("citation %d: %+v", i, c)
					continue
				}
				refs += strings.Count(out.Answer, "["+strconv.Itoa(i+1)+"]")
			}
			if tc.duplicateCited && refs <= len(out.Citations) {
				t.Errorf("a URL cited twice should be one citation referenced twice (refs %d)", refs)
			}
			for _, u := range out.Consulted {
				for _, c := range out.Citations {
					if u == c.URL {
						t.Errorf("consulted repeats cited %s", u)
					}
				}
			}
		})
	}
}

// TestContractSnippetAfterNonASCII: the gpt-4o recording has "°F" before its
// fifth citation; a byte-offset reading would cut the snippet wrongly.
func TestContractSnippetAfterNonASCII(t *testing.T) {
	r, err := Decode(readContract(t, "gpt-4o-2025-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := Parse(r).Render(0)
	got := out.Citations[4].Snippet
	if got != "This warming trend poses various risks, including early snowmelt and increased wildfire threats." {
		t.Errorf("snippet %q", got)
	}
	if out.Citations[4].URL != "https://www.axios.com/local/san-francisco/2025/03/03/climate-weather-spring-temperatures-warmer-sf" {
		t.Errorf("url %q", out.Citations[4].URL)
	}
}

// TestContractRecordedErrors replays recorded error bodies through the client.
func TestContractRecordedErrors(t *testing.T) {
	cases := []struct {
		file      string
		status    int
		code      envelope.Code
		retryable bool
		attempts  int
		inMessage string
	}{
		{"error-insufficient-quota.json", 429, envelope.PermissionDenied, false, 1, "insufficient_quota"},
		{"error-unsupported-parameter.json", 400, envelope.InvalidArgument, false, 1, "temperature"},
		{"error-tool-choice.json", 400, envelope.InvalidArgument, false, 1, "tool_choice"},
		{"error-missing-parameter.json", 400, envelope.InvalidArgument, false, 1, "missing_required_parameter"},
		// web_search with minimal effort: the fix is the effort setting.
		{"error-minimal-web-search.json", 400, envelope.InvalidArgument, false, 1, "set WEB_SEARCH_REASONING_EFFORT to low"},
		// A shut-down or unknown model: not retried; the setting and the
		// recommended replacement named.
		{"error-model-not-found.json", 404, envelope.NotFound, false, 1, "set WEB_SEARCH_MODEL=gpt-6-luna"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			rp := servetest.Answer(t, "POST", "/v1/responses", tc.status, readContract(t, tc.file))
			srv := httptest.NewServer(rp)
			defer srv.Close()
			c := New(Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1", RetryWait: time.Millisecond, Model: "gpt-5-nano"})
			_, err := c.Search(context.Background(), Query{Text: "anything"})
			e := envelope.From(err)
			if n := rp.Served(); e.Code != tc.code || e.Retryable != tc.retryable || n != tc.attempts || !strings.Contains(e.Message, tc.inMessage) {
				t.Errorf("got %s retryable=%v after %d attempts: %s", e.Code, e.Retryable, n, e.Message)
			}
		})
	}
}

// TestContractRecordedAnswerThroughClient sends a recorded 200 through the
// client's HTTP path.
func TestContractRecordedAnswerThroughClient(t *testing.T) {
	rp := servetest.Answer(t, "POST", "/v1/responses", 200, readContract(t, "gpt-5-mini-2025-12.json"))
	rp.Exchanges[0].Request.Headers = map[string]string{"Authorization": "Bearer sk-test"}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	c := New(Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1"})
	res, err := c.Search(context.Background(), Query{Text: "tech news", MaxResults: 3})
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Render(3); len(out.Citations) != 3 || strings.Contains(out.Answer, "[4]") {
		t.Errorf("render(3): %d citations; answer %s", len(out.Citations), out.Answer)
	}
}

// TestContractPhase: gpt-5.4 and later mark messages with phase; the
// commentary preamble of the recording (vercel/ai openai-phase.1.json) is
// not part of the answer.
func TestContractPhase(t *testing.T) {
	r, err := Decode(readContract(t, "gpt-5.3-codex-phase-2026-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	if out := Parse(r).Render(0); out.Answer != "The capital of France is Paris." {
		t.Errorf("answer %q", out.Answer)
	}
	// Without phase (older models) every message is the answer.
	for i := range r.Output {
		r.Output[i].Phase = ""
	}
	if out := Parse(r).Render(0); !strings.Contains(out.Answer, "I'm going to use the web search tool") {
		t.Errorf("unphased answer %q", out.Answer)
	}
}

// TestContractToolUsage: a gpt-6-luna answer (effort none accepted
// explicitly, phase final_answer) reports billed web searches in
// tool_usage.web_search.num_requests, which wins over counting actions.
func TestContractToolUsage(t *testing.T) {
	r, err := Decode(readContract(t, "gpt-6-luna-none-2026-10.json"))
	if err != nil {
		t.Fatal(err)
	}
	res := Parse(r)
	if res.Model != "gpt-6-luna" || res.BilledSearches != 0 || res.Render(0).Answer != "ok" {
		t.Errorf("%+v", res)
	}
	// The same answer with three search calls but num_requests 2: OpenAI's count.
	n := 2
	r.ToolUsage.WebSearch.NumRequests = &n
	r.Output = append(r.Output, OutputItem{Type: "web_search_call", Action: &Action{Type: "search"}},
		OutputItem{Type: "web_search_call", Action: &Action{Type: "search"}}, OutputItem{Type: "web_search_call", Action: &Action{Type: "open_page", URL: "https://a.com/"}})
	if res := Parse(r); res.BilledSearches != 2 || res.PageOpens != 1 {
		t.Errorf("billed %d, opens %d", res.BilledSearches, res.PageOpens)
	}
}

// TestEffortSent: what goes out in reasoning.effort for each setting.
func TestEffortSent(t *testing.T) {
	for _, tc := range []struct{ model, set, sent string }{
		{"gpt-6-luna", "minimal", "low"}, {"gpt-6-luna", "none", "none"}, {"gpt-6-luna", "", ""},
		{"gpt-6-luna", "high", "high"}, {"gpt-4o", "low", ""}, {"gpt-5-nano", "MINIMAL", "low"},
		{"gpt-5-nano", "none", "low"}, {"gpt-5-mini-2025-08-07", "none", "low"}, {"gpt-5.1", "none", "none"}, {"gpt-5.4-mini", "none", "none"},
	} {
		c := New(Config{Model: tc.model, Effort: tc.set})
		got := ""
		if r := c.BuildRequest(Query{Text: "q"}).Reasoning; r != nil {
			got = r.Effort
		}
		if got != tc.sent {
			t.Errorf("%s effort %q: sent %q, want %q", tc.model, tc.set, got, tc.sent)
		}
	}
}
