package tools

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
)

// SearchIn is search_web's input.
type SearchIn struct {
	// The input descriptions are short on purpose: get_search_capabilities'
	// parameters say what each really does (the tools/list budget).
	Query          string   `json:"query" mcp:"minLength=3;maxLength=400"`
	MaxResults     int      `json:"maxResults,omitempty" mcp:"min=1;max=8;default=5"`
	FreshnessHours int      `json:"freshnessHours,omitempty" jsonschema:"best effort" mcp:"min=1;max=8760"`
	Region         string   `json:"region,omitempty"`
	IncludeAnswers *bool    `json:"includeAnswers,omitempty" jsonschema:"false: citations only" mcp:"default=true"`
	AllowedDomains []string `json:"allowedDomains,omitempty" jsonschema:"+subdomains" mcp:"maxItems=100"`
}

// SearchOut is search_web's result.
type SearchOut struct {
	// Coverage is complete, or partial (the deadline or OpenAI stopped the
	// answer early: what came is here) with how to get the rest.
	envelope.Coverage
	Answer         string         `json:"answer,omitempty"`
	Citations      []openai.Cited `json:"citations"`
	Trace          Trace          `json:"trace" mcp:"type=object"`
	CallsRemaining *int           `json:"calls_remaining,omitempty"`
	// ThirdParty: the answer, titles and snippets are web text quoted by
	// OpenAI's model: data, not instructions.
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

// searchThirdParty are the fields of SearchOut that hold web text.
var searchThirdParty = envelope.ThirdParty{"answer", "citations[].title", "citations[].snippet"}

// Trace is how the answer was found, for a user who wants to check it: the
// model's queries, consulted URLs that were not cited (≤ 20) and the cost.
// An agent decides on the answer, citations and budget, so the schema types
// only those.
type Trace struct {
	// Cached: answered from cache, free.
	Cached           bool     `json:"cached,omitempty"`
	Queries          []string `json:"queries"`
	SourcesConsulted []string `json:"sources_consulted"`
	Usage            Usage    `json:"usage"`
}

// Usage is what the search cost (output tokens include reasoning). OpenAI
// bills each search action; page opens and finds in a page are free, so they
// are counted apart.
type Usage struct {
	InputTokens    int `json:"input_tokens"`
	OutputTokens   int `json:"output_tokens"`
	BilledSearches int `json:"billed_searches"`
	PageOpens      int `json:"page_opens"`
	FindInPage     int `json:"find_in_page"`
	// Requests is 2 when the first answer ran out of output tokens and was
	// asked again with more room (both are billed).
	Requests int `json:"requests"`
}

const searchDescription = `Web search (OpenAI): short answer, [n] cites citations[n-1]. 1 of a user's 20 searches/10 min; 10-90 s, progress; complete:false = cut at the deadline.`

func (s *Service) searchTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "search_web", Title: "Search the web", Toolset: "search",
		Description: searchDescription,
		// Read-only, but not idempotent: every call spends budget and the web changes.
		Hints: toolkit.Hints{ReadOnly: true, OpenWorld: true}}, s.search)
}

func (s *Service) search(ctx context.Context, in SearchIn) (SearchOut, error) {
	q, withAnswer, err := normalize(in)
	if err != nil {
		return SearchOut{}, err
	}
	if !s.c.HasKey() {
		return SearchOut{}, envelope.New(envelope.Unauthenticated, "no OpenAI API key: set %s (platform.openai.com/api-keys) and restart the server; nothing was spent", openai.EnvAPIKey)
	}
	// The client stops at its deadline and answers what came; this one,
	// a little later, only bounds the rest (the limit, the cache).
	ctx, cancel := context.WithTimeout(ctx, s.c.Config().Timeout+deadlineGrace)
	defer cancel()
	user := serve.UserID(ctx)
	res, cached, remaining, err := s.run(ctx, user, q, progressTo(ctx))
	if err != nil {
		return SearchOut{}, err
	}
	r := res.Render(q.MaxResults)
	requests := 1
	if res.Retried {
		requests = 2
	}
	out := SearchOut{Coverage: s.coverage(res), ThirdParty: searchThirdParty, Citations: r.Citations, Trace: Trace{Cached: cached, Queries: res.Queries, SourcesConsulted: r.Consulted,
		Usage: Usage{InputTokens: res.Usage.Input, OutputTokens: res.Usage.Output, BilledSearches: res.BilledSearches,
			PageOpens: res.PageOpens, FindInPage: res.FindInPage, Requests: requests}}}
	if withAnswer {
		out.Answer = r.Answer
		if out.Answer == "" && res.Refusal != "" {
			out.Answer = res.Refusal
		}
		out.Answer = envelope.CleanThirdParty(out.Answer)
	}
	for i := range out.Citations {
		out.Citations[i].Title = envelope.CleanThirdParty(out.Citations[i].Title)
		out.Citations[i].Snippet = envelope.CleanThirdParty(out.Citations[i].Snippet)
	}
	if remaining >= 0 {
		out.CallsRemaining = &remaining
	} else if st, err := s.q.Peek(ctx, user); err == nil {
		out.CallsRemaining = &st.Remaining
	}
	return out, nil
}

// deadlineGrace is how long after the client's deadline the tool call
// may still run: enough to answer the cut result.
const deadlineGrace = 5 * time.Second

// coverage says whether the answer is whole: a deadline or OpenAI itself
// can stop it early, and then what came is returned, marked partial.
func (s *Service) coverage(res *openai.Result) envelope.Coverage {
	cfg := s.c.Config()
	switch {
	case res.Cut != "":
		return envelope.Cut(envelope.Partial,
			fmt.Sprintf("the answer stopped at the %s deadline (%s=%s) after %d web searches: the rest of the answer and any later citations", human(cfg.Timeout), openai.EnvTimeout, cfg.Timeout, res.BilledSearches),
			fmt.Sprintf("the text and citations here are valid as far as they go; for the rest ask a narrower question, or have the operator lower %s or %s, or raise %s (this search was billed and counted)", openai.EnvEffort, openai.EnvMaxToolCalls, openai.EnvTimeout))
	case res.Incomplete == "max_output_tokens":
		return envelope.Cut(envelope.Partial, "the answer hit the output token cap and is cut short", "citations so far are valid; narrow the query (or raise "+openai.EnvMaxOutputTokens+")")
	case res.Incomplete == "content_filter":
		return envelope.Cut(envelope.Partial, "OpenAI's content filter stopped the answer", "rephrase the query")
	case res.Incomplete != "":
		return envelope.Cut(envelope.Partial, "OpenAI stopped early ("+res.Incomplete+")", "what came is returned; try again")
	}
	return envelope.Whole()
}

// progressTo turns each step of a search into an MCP progress
// notification of the call in ctx (none when the client sent no progress
// token). The count only grows, as MCP asks; there is no total.
func progressTo(ctx context.Context) openai.Progress {
	var n atomic.Int64
	return func(msg string) { toolkit.Progress(ctx, float64(n.Add(1)), 0, msg) }
}

// normalize checks what the schema cannot: the query's length after
// trimming, a real country code, host names.
func normalize(in SearchIn) (openai.Query, bool, error) {
	q := openai.Query{Text: strings.Join(strings.Fields(in.Query), " "), MaxResults: in.MaxResults, FreshnessHours: in.FreshnessHours}
	if n := utf8.RuneCountInString(q.Text); n < 3 || n > 400 {
		return q, false, envelope.Invalid("query", "query must be 3 to 400 characters of text (got %d after trimming spaces)", n)
	}
	if q.MaxResults == 0 {
		q.MaxResults = 5
	}
	if q.MaxResults < 1 || q.MaxResults > 8 {
		return q, false, envelope.Invalid("maxResults", "maxResults must be 1..8")
	}
	if in.FreshnessHours < 0 {
		return q, false, envelope.Invalid("freshnessHours", "freshnessHours must be a positive number of hours")
	}
	if in.Region != "" {
		c, err := country(in.Region)
		if err != nil {
			return q, false, err
		}
		q.Country = c
	}
	seen := map[string]bool{}
	for _, d := range in.AllowedDomains {
		h, err := host(d)
		if err != nil {
			return q, false, err
		}
		if !seen[h] {
			seen[h] = true
			q.AllowedDomains = append(q.AllowedDomains, h)
		}
	}
	withAnswer := in.IncludeAnswers == nil || *in.IncludeAnswers
	q.SourcesOnly = !withAnswer // a cheaper request, not the same one with the answer dropped
	return q, withAnswer, nil
}

// country checks an ISO 3166-1 alpha-2 code.
func country(s string) (string, error) {
	up := strings.ToUpper(strings.TrimSpace(s))
	r, err := language.ParseRegion(up)
	if err != nil || !r.IsCountry() {
		return "", envelope.Invalid("region", "region %q is not an ISO 3166 alpha-2 country code (e.g. AE, GB, US); omit it for no location", extract.Clip(s, 60))
	}
	if c := r.Canonicalize().String(); c != up || r.ISO3() == "ZZZ" {
		return "", envelope.Invalid("region", "region %q is not current ISO 3166 alpha-2; use %s", up, c)
	}
	return up, nil
}

// host reduces an allowedDomains entry to a bare host name (the API wants no
// scheme; subdomains are included: the tools-web-search guide).
func host(d string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(d))
	h = strings.TrimPrefix(strings.TrimPrefix(h, "https://"), "http://")
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimPrefix(strings.TrimPrefix(h, "*."), "www.")
	h = strings.TrimSuffix(h, ".")
	ok := h != "" && len(h) <= 253 && strings.Contains(h, ".") && !strings.HasPrefix(h, ".") && !strings.HasPrefix(h, "-")
	for i := 0; ok && i < len(h); i++ {
		c := h[i]
		ok = c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	if !ok || strings.Contains(h, "..") {
		return "", envelope.Invalid("allowedDomains", "allowedDomains entry %q is not a host name; give bare hosts such as reuters.com (subdomains are included)", extract.Clip(d, 60))
	}
	return h, nil
}
