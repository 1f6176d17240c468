package openai

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Result is one search's answer, parsed and cleaned but not yet cut to a
// caller's maxResults (Render does that). It round-trips through JSON, so a
// Redis cache can hold it.
type Result struct {
	ID     string `json:"id"`
	Model  string `json:"model"`
	Status string `json:"status"`
	// Pieces are the answer: prose and citation references, in order.
	Pieces []Piece `json:"pieces"`
	// Citations are deduplicated by URL (tracking stripped), in order of
	// first citation.
	Citations []Citation `json:"citations"`
	// Consulted are the URLs the search actions list (sources, opened and
	// searched pages), cleaned and deduplicated; cited ones included.
	Consulted []string `json:"consulted"`
	// Feeds are real-time sources of type "api" (e.g. oai-finance).
	Feeds   []string `json:"feeds"`
	Queries []string `json:"queries"`
	// BilledSearches are the searches OpenAI bills: web_search_call items
	// whose action is a search (opening a page or finding in it is not
	// billed), or tool_usage.web_search.num_requests when the answer
	// carries it. A call without an action is counted as a search (assumed:
	// the cost is not under-reported).
	BilledSearches int `json:"billed_searches"`
	// PageOpens and FindInPage are the unbilled actions.
	PageOpens  int    `json:"page_opens"`
	FindInPage int    `json:"find_in_page"`
	Usage      Tokens `json:"usage"`
	// Retried is true when the answer came from a second request with more
	// output room after the first ran out.
	Retried bool `json:"retried,omitempty"`
	// Incomplete is incomplete_details.reason when the API stopped early.
	Incomplete string `json:"incomplete,omitempty"`
	// Refusal is the model's refusal text, if it refused.
	Refusal string `json:"refusal,omitempty"`
	// Cut is "deadline" when the search's deadline stopped the stream: the
	// result holds what came before it (finished searches, the answer so
	// far with its citations). Never cached.
	Cut string `json:"cut,omitempty"`
}

// Piece is prose (Text) or a citation reference (Ref, 1-based into
// Citations). Cited marks prose that an annotation covered itself, not a
// marker after it.
type Piece struct {
	Text  string `json:"t,omitempty"`
	Ref   int    `json:"r,omitempty"`
	Cited bool   `json:"c,omitempty"`
}

// Citation is one cited page.
type Citation struct {
	Title  string `json:"title"`
	URL    string `json:"url"`
	Domain string `json:"domain"`
	key    string
}

// Tokens is the usage the API reports.
type Tokens struct {
	Input     int `json:"input_tokens"`
	Output    int `json:"output_tokens"`
	Reasoning int `json:"reasoning_tokens"`
	Total     int `json:"total_tokens"`
}

// maxConsulted bounds the consulted URLs kept (a search can list dozens).
const maxConsulted = 40

// Decode parses a 200 body. Malformed JSON, or an answer that is not a
// response object, is an upstream_error.
func Decode(body []byte) (*Response, error) {
	var r Response
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, envelope.New(envelope.UpstreamError, "OpenAI's answer is not valid JSON (%s); try again", extract.Clip(err.Error(), 120)).
			WithRetryable(true)
	}
	if r.Status == "" && r.Output == nil {
		return nil, envelope.New(envelope.UpstreamError, "OpenAI's answer has no status and no output; check OPENAI_BASE_URL points at the Responses API").
			WithRetryable(false)
	}
	return &r, nil
}

// Parse turns a response into a Result: every message's output_text parts
// (wherever they sit among reasoning and search items), their url_citation
// annotations, and the search actions.
func Parse(r *Response) *Result {
	res := &Result{ID: r.ID, Model: r.Model, Status: r.Status, Pieces: []Piece{}, Citations: []Citation{},
		Consulted: []string{}, Feeds: []string{}, Queries: []string{}}
	if r.IncompleteDetails != nil {
		res.Incomplete = r.IncompleteDetails.Reason
	}
	if u := r.Usage; u != nil {
		res.Usage = Tokens{Input: u.InputTokens, Output: u.OutputTokens, Total: u.TotalTokens}
		if u.OutputTokenDetails != nil {
			res.Usage.Reasoning = u.OutputTokenDetails.ReasoningTokens
		}
	}
	seenURL := map[string]bool{}
	byKey := map[string]int{}
	first := true
	// With phase on any message, only final_answer messages are the answer:
	// commentary is the model talking about what it does.
	phased := false
	for _, it := range r.Output {
		if it.Type == "message" && it.Phase != "" {
			phased = true
		}
	}
	for _, it := range r.Output {
		switch it.Type {
		case "web_search_call":
			switch {
			case it.Action == nil || it.Action.Type == "search" || it.Action.Type == "":
				res.BilledSearches++
			case it.Action.Type == "open_page":
				res.PageOpens++
			case it.Action.Type == "find_in_page":
				res.FindInPage++
			}
			res.addAction(it.Action, seenURL)
		case "message":
			if phased && it.Phase != "final_answer" {
				continue
			}
			inMessage := false
			for _, p := range it.Content {
				switch p.Type {
				case "output_text":
					if p.Text == "" {
						continue
					}
					// messages are set apart; the parts of one message are one
					// text, joined as they are (openai-python's output_text
					// joins every part with "")
					if !first && !inMessage {
						res.Pieces = append(res.Pieces, Piece{Text: "\n\n"})
					}
					first, inMessage = false, true
					res.addText(p, byKey)
				case "refusal":
					res.Refusal = strings.TrimSpace(res.Refusal + " " + p.Refusal)
				}
			}
		}
	}
	if tu := r.ToolUsage; tu != nil && tu.WebSearch != nil && tu.WebSearch.NumRequests != nil && *tu.WebSearch.NumRequests >= 0 {
		res.BilledSearches = *tu.WebSearch.NumRequests // OpenAI's own count
	}
	res.Pieces = mergeText(res.Pieces)
	for i := range res.Pieces {
		res.Pieces[i].Text = cleanLinks(res.Pieces[i].Text)
	}
	return res
}

// linkRE finds URLs in prose (markdown links the model wrote itself, or
// bare URLs); they carry the same tracking parameters as citations.
var linkRE = regexp.MustCompile(`https?://[^\s()<>\[\]"']+`)

// cleanLinks strips tracking parameters from the URLs in s.
func cleanLinks(s string) string {
	if !strings.Contains(s, "http") {
		return s
	}
	return linkRE.ReplaceAllStringFunc(s, func(u string) string {
		core := strings.TrimRight(u, ".,;:!?")
		clean, _, _, ok := CleanURL(core)
		if !ok {
			return u
		}
		return clean + u[len(core):]
	})
}

func (res *Result) addAction(a *Action, seen map[string]bool) {
	if a == nil {
		return // a call without an action (a vercel/ai test covers one)
	}
	qs := a.Queries
	if len(qs) == 0 && a.Query != "" {
		qs = []string{a.Query}
	}
	for _, q := range qs {
		if q = strings.TrimSpace(q); q != "" && !slices.Contains(res.Queries, q) {
			res.Queries = append(res.Queries, q)
		}
	}
	add := func(raw string) {
		clean, _, key, ok := CleanURL(raw)
		if !ok || seen[key] || len(res.Consulted) >= maxConsulted {
			return
		}
		seen[key] = true
		res.Consulted = append(res.Consulted, clean)
	}
	if a.URL != "" {
		add(a.URL)
	}
	for _, s := range a.Sources {
		switch {
		case s.Type == "api" && s.Name != "":
			if !slices.Contains(res.Feeds, s.Name) {
				res.Feeds = append(res.Feeds, s.Name)
			}
		case s.URL != "":
			add(s.URL)
		}
	}
}

// span is one annotation located in a part's text (byte offsets).
type span struct {
	bs, be int
	ref    int
	marker bool
}

func (res *Result) addText(p ContentPart, byKey map[string]int) {
	text := p.Text
	spans := make([]span, 0, len(p.Annotations))
	// Without characters outside the BMP both readings agree: map every
	// offset in one pass over the text instead of one pass per annotation.
	var fast *offsetIndex
	if !hasAstral(text) {
		fast = newOffsetIndex(text, p.Annotations)
	}
	for _, a := range p.Annotations {
		if a.Type != "url_citation" {
			continue
		}
		clean, domain, key, ok := CleanURL(a.URL)
		if !ok {
			continue
		}
		ref, seen := byKey[key]
		if !seen {
			res.Citations = append(res.Citations, Citation{Title: strings.TrimSpace(extract.Clip(a.Title, 200)), URL: clean, Domain: domain, key: key})
			ref = len(res.Citations)
			byKey[key] = ref
		}
		var bs, be int
		if fast != nil {
			bs, be, ok = fast.span(a.StartIndex, a.EndIndex)
		} else {
			bs, be, ok = CitedSpan(text, a.StartIndex, a.EndIndex, a.URL)
		}
		if !ok {
			// Unusable offsets: cite at the end of the part rather than lose it.
			bs, be = len(text), len(text)
		}
		spans = append(spans, span{bs: bs, be: be, ref: ref, marker: isMarker(text[bs:be])})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].bs < spans[j].bs })
	at := 0
	for _, s := range spans {
		if s.bs < at { // overlaps the previous annotation: reference it where we are
			res.Pieces = append(res.Pieces, Piece{Ref: s.ref})
			continue
		}
		if s.bs > at {
			res.Pieces = append(res.Pieces, Piece{Text: text[at:s.bs]})
		}
		switch {
		case s.marker || s.be == s.bs:
			res.Pieces = append(res.Pieces, Piece{Ref: s.ref})
		default:
			res.Pieces = append(res.Pieces, Piece{Text: text[s.bs:s.be], Ref: s.ref, Cited: true})
		}
		at = s.be
	}
	if at < len(text) {
		res.Pieces = append(res.Pieces, Piece{Text: text[at:]})
	}
}

// mergeText joins adjacent prose pieces.
func mergeText(ps []Piece) []Piece {
	out := ps[:0]
	for _, p := range ps {
		if n := len(out); n > 0 && p.Ref == 0 && out[n-1].Ref == 0 {
			out[n-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	return out
}
