package tools

import (
	"context"
	"strings"
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
	Query          string   `json:"query" mcp:"minLength=3;maxLength=400"`
	MaxResults     int      `json:"maxResults,omitempty" jsonschema:"citations kept" mcp:"min=1;max=8;default=5"`
	FreshnessHours int      `json:"freshnessHours,omitempty" jsonschema:"prefer last N h (best effort)" mcp:"min=1;max=8760"`
	Region         string   `json:"region,omitempty" jsonschema:"ISO alpha-2 country, a location hint" mcp:"pattern=^[A-Za-z]{2}$"`
	IncludeAnswers *bool    `json:"includeAnswers,omitempty" jsonschema:"false: citations only" mcp:"default=true"`
	AllowedDomains []string `json:"allowedDomains,omitempty" jsonschema:"only these hosts (+subdomains)" mcp:"maxItems=100"`
}

// SearchOut is search_web's result.
type SearchOut struct {
	Answer         string         `json:"answer,omitempty"`
	Citations      []openai.Cited `json:"citations"`
	Trace          Trace          `json:"trace" mcp:"type=object"`
	Incomplete     string         `json:"incomplete,omitempty"`
	Cached         bool           `json:"cached,omitempty"`
	CallsRemaining *int           `json:"calls_remaining,omitempty"`
}

// Trace is how the answer was found, for a user who wants to check it: the
// model's queries, consulted URLs that were not cited (≤ 20) and the cost.
// An agent decides on the answer, citations and budget, so the schema types
// only those.
type Trace struct {
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

const searchDescription = `Web search (OpenAI web_search) for current facts: a short answer whose [n] cites citations[n-1].
Spends 1 of the user's 20 searches/10 min (repeats cached); 2-15 s.
Errors: rate_limited (retry_after_s), unauthenticated, permission_denied (quota). Budget: get_search_capabilities.`

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
	ctx, cancel := context.WithTimeout(ctx, s.c.Config().Timeout)
	defer cancel()
	user := serve.UserID(ctx)
	res, cached, remaining, err := s.run(ctx, user, q)
	if err != nil {
		return SearchOut{}, err
	}
	r := res.Render(q.MaxResults)
	requests := 1
	if res.Retried {
		requests = 2
	}
	out := SearchOut{Citations: r.Citations, Cached: cached, Trace: Trace{Queries: res.Queries, SourcesConsulted: r.Consulted,
		Usage: Usage{InputTokens: res.Usage.Input, OutputTokens: res.Usage.Output, BilledSearches: res.BilledSearches,
			PageOpens: res.PageOpens, FindInPage: res.FindInPage, Requests: requests}}}
	if withAnswer {
		out.Answer = r.Answer
		if out.Answer == "" && res.Refusal != "" {
			out.Answer = res.Refusal
		}
	}
	if res.Incomplete != "" {
		out.Incomplete = res.Incomplete + ": " + incompleteNote(res.Incomplete)
	}
	if remaining >= 0 {
		out.CallsRemaining = &remaining
	} else if st, err := s.q.Peek(ctx, user); err == nil {
		out.CallsRemaining = &st.Remaining
	}
	return out, nil
}

func incompleteNote(reason string) string {
	switch reason {
	case "max_output_tokens":
		return "the answer hit the output token cap and is cut short; citations so far are valid (raise " + openai.EnvMaxOutputTokens + " or narrow the query)"
	case "content_filter":
		return "OpenAI's content filter stopped the answer"
	}
	return "OpenAI stopped early; what came is returned"
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
