package openai

// Contract tests: real answers of the Responses API (testdata/contract,
// provenance in SOURCES.md) replayed against the client, separately from
// the fake; the request each case pins is what the client sends for its
// settings.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// contract is the recorded exchanges of POST /v1/responses
// (testdata/contract/cases.json; each names its source). A case's args are
// the client's settings and the query; its want may add what a subset of
// the result cannot say: the exact number of citations, a citation
// referenced twice, text the answer must lack.
var contract = servetest.Contract{File: "testdata/contract/cases.json", MinCases: 13,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		var a struct {
			Model          string   `json:"model"`
			Effort         string   `json:"effort"`
			Text           string   `json:"text"`
			MaxResults     int      `json:"max_results"`
			FreshnessHours int      `json:"freshness_hours"`
			Country        string   `json:"country"`
			AllowedDomains []string `json:"allowed_domains"`
			SourcesOnly    bool     `json:"sources_only"`
		}
		var own struct {
			Want struct {
				Citations   *int     `json:"citations"`
				CitedTwice  bool     `json:"cited_twice"`
				AnswerLacks []string `json:"answer_lacks"`
				// Progress are messages the search must report.
				Progress []string `json:"progress"`
			} `json:"want"`
		}
		if err := json.Unmarshal(tc.Args, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(tc.Raw, &own); err != nil {
			t.Fatal(err)
		}
		if tc.Call != "search" {
			t.Fatalf("unknown call %q", tc.Call)
		}
		c := New(Config{APIKey: "sk-contract", BaseURL: streamed(t, base) + "/v1", Model: a.Model, Effort: a.Effort,
			RetryWait: time.Millisecond, Timeout: 5 * time.Second})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var steps []string
		res, err := c.Search(ctx, Query{Text: a.Text, MaxResults: a.MaxResults, FreshnessHours: a.FreshnessHours,
			Country: a.Country, AllowedDomains: a.AllowedDomains, SourcesOnly: a.SourcesOnly}, func(m string) { steps = append(steps, m) })
		for _, want := range own.Want.Progress {
			if !slices.Contains(steps, want) {
				t.Errorf("progress %q missing: %q", want, steps)
			}
		}
		w := own.Want
		if err != nil {
			return nil, err
		}
		out := res.Render(a.MaxResults)
		refs := checkRendered(t, out)
		if w.Citations != nil && len(out.Citations) != *w.Citations {
			t.Errorf("%d citations, want %d: %+v", len(out.Citations), *w.Citations, out.Citations)
		}
		if w.CitedTwice && refs <= len(out.Citations) {
			t.Errorf("a URL cited twice should be one citation referenced twice (refs %d)", refs)
		}
		for _, s := range w.AnswerLacks {
			if strings.Contains(out.Answer, s) {
				t.Errorf("answer has %q: %s", s, out.Answer)
			}
		}
		return searched{Parsed: res, Answer: out.Answer, Citations: out.Citations, Consulted: out.Consulted, Dropped: out.Dropped}, nil
	}}

// streamed fronts the replay server at base: a recorded streamed answer
// (text/event-stream) passes as it is; a recorded whole response object
// (application/json, 200) is framed as the stream that carries it, the
// response.created event and then the terminal event
// (response.completed, .incomplete or .failed) holding the whole response,
// as the Responses streaming reference and the recorded streams do. Error
// answers pass as they are: the API answers them before any stream.
func streamed(t *testing.T, base string) string {
	target, _ := url.Parse(base)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			return nil
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		var head struct {
			Status string `json:"status"`
		}
		if json.Unmarshal(body, &head) != nil || head.Status == "" {
			r.Body = io.NopCloser(bytes.NewReader(body))
			return nil
		}
		var flat bytes.Buffer
		if err := json.Compact(&flat, body); err != nil {
			return err
		}
		body = flat.Bytes()
		var b bytes.Buffer
		created := `{"type":"response.created","sequence_number":0,"response":{"status":"in_progress","output":[]}}`
		fmt.Fprintf(&b, "event: response.created\ndata: %s\n\n", created)
		final := `{"type":"response.` + head.Status + `","sequence_number":1,"response":` + string(body) + `}`
		fmt.Fprintf(&b, "event: response.%s\ndata: %s\n\n", head.Status, final)
		r.Body = io.NopCloser(&b)
		r.ContentLength = int64(b.Len())
		r.Header.Set("Content-Length", strconv.Itoa(b.Len()))
		r.Header.Set("Content-Type", "text/event-stream")
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

// searched is what a case's search returns: the parsed result and its
// rendering for the case's max_results.
type searched struct {
	Parsed    *Result  `json:"parsed"`
	Answer    string   `json:"answer"`
	Citations []Cited  `json:"citations"`
	Consulted []string `json:"consulted"`
	Dropped   int      `json:"dropped"`
}

// TestContract replays the recorded cases against the client, with no fake
// in between.
func TestContract(t *testing.T) { contract.Run(t) }

// checkRendered holds for every rendered answer: no citation markers or
// tracking left, every citation titled and quoting the answer, consulted
// URLs apart from cited ones. It returns how many [n] references the
// answer has.
func checkRendered(t *testing.T, out Rendered) (refs int) {
	t.Helper()
	if strings.Contains(out.Answer, "utm_") || strings.Contains(out.Answer, "([") {
		t.Errorf("answer keeps markers or tracking: %s", out.Answer)
	}
	for i, c := range out.Citations {
		if strings.Contains(c.URL, "utm_") || c.Title == "" || c.Snippet == "" || !strings.Contains(out.Answer, c.Snippet) {
			t.Errorf("citation %d: %+v", i, c)
			continue
		}
		refs += strings.Count(out.Answer, "["+strconv.Itoa(i+1)+"]")
	}
	for _, u := range out.Consulted {
		for _, c := range out.Citations {
			if u == c.URL {
				t.Errorf("consulted repeats cited %s", u)
			}
		}
	}
	return refs
}

// TestContractCitationSpans: in every recorded answer, each annotation
// sliced by code points is its marker, naming the cited host: the offset
// unit this parser relies on (SOURCES.md).
func TestContractCitationSpans(t *testing.T) {
	spans := 0
	for _, f := range recordedFiles(t, 200) {
		r, err := Decode(contract.Recording(t, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, it := range r.Output {
			for _, p := range it.Content {
				for _, a := range p.Annotations {
					spans++
					bs, be, ok := CitedSpan(p.Text, a.StartIndex, a.EndIndex, a.URL)
					if !ok || !isMarker(p.Text[bs:be]) || !strings.Contains(p.Text[bs:be], hostOf(a.URL)) {
						t.Errorf("%s: annotation %d..%d is %q", f, a.StartIndex, a.EndIndex, p.Text[bs:be])
					}
				}
			}
		}
	}
	if spans < 18 { // 5 + 7 + 6 in the three search recordings, at least
		t.Errorf("only %d annotations checked", spans)
	}
}

// recordedFiles are the body files of the contract cases' answers with
// status, each once.
func recordedFiles(t testing.TB, status int) []string {
	var files []string
	seen := map[string]bool{}
	for _, tc := range contract.Cases(t) {
		for _, ex := range tc.Exchanges {
			if f := ex.Response.BodyFile; strings.HasSuffix(f, ".json") && ex.Response.Status == status && !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return files
}

// TestPhaseMarksTheAnswer: gpt-5.4 and later mark messages with phase
// (the recording's commentary preamble is left out: TestContract); without
// phase, as older models answer, every message is the answer.
func TestPhaseMarksTheAnswer(t *testing.T) {
	r, err := Decode(contract.Recording(t, "gpt-5.3-codex-phase-2026-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Output {
		r.Output[i].Phase = ""
	}
	if out := Parse(r).Render(0); !strings.Contains(out.Answer, "I'm going to use the web search tool") {
		t.Errorf("unphased answer %q", out.Answer)
	}
}

// TestToolUsageWinsOverActions: the gpt-6-luna answer with three search
// calls but tool_usage.web_search.num_requests 2 bills OpenAI's count.
func TestToolUsageWinsOverActions(t *testing.T) {
	r, err := Decode(contract.Recording(t, "gpt-6-luna-none-2026-10.json"))
	if err != nil {
		t.Fatal(err)
	}
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
		{"gpt-6.1-sol", "none", "low"}, {"gpt-6.1-sol", "minimal", "low"}, {"gpt-6.1-sol", "max", "max"},
		{"gpt-5", "max", "high"}, {"gpt-5.1", "xhigh", "high"}, {"o3", "none", "low"}, {"gpt-5-pro", "low", "high"},
	} {
		c := New(Config{Model: tc.model, Effort: tc.set})
		got := string(c.BuildRequest(Query{Text: "q"}).Reasoning.Effort)
		if got != tc.sent {
			t.Errorf("%s effort %q: sent %q, want %q", tc.model, tc.set, got, tc.sent)
		}
	}
}
