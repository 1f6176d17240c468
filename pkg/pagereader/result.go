package pagereader

import (
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Window sizes a tool offers (runes of text per call).
const (
	DefaultWindow = 12_000
	MinWindow     = 1_000
	MaxWindow     = 50_000
)

// Result is a page as a tool returns it: one window of its text, what the
// page says of itself, and what the window covers. Every tool that reads a
// page (web-search fetch_page, google-news-rss read_article) returns it, so
// an agent meets one shape. Only what an agent decides on is typed in the
// output schema; the page's metadata is one plain object (the fleet's
// tools/list budget).
type Result struct {
	envelope.Coverage
	URL string `json:"url"` // after redirects
	// Text is the window [page.start, page.start+len) of the main text
	// (Markdown for HTML), in runes.
	Text  string              `json:"text"`
	Page  Info                `json:"page" mcp:"type=object"`
	Third envelope.ThirdParty `json:"third_party"`
}

// Info is what the page says of itself and how it was read.
type Info struct {
	Title     string `json:"title,omitempty"`
	Byline    string `json:"byline,omitempty"`
	SiteName  string `json:"site_name,omitempty"`
	Published string `json:"published,omitempty"` // the page's own date, RFC 3339
	Language  string `json:"language,omitempty"`
	// ContentType as the site sent it (or sniffed); Readable false: no
	// article was found, the text is the whole page's text.
	ContentType string `json:"content_type"`
	Readable    bool   `json:"readable"`
	Start       int    `json:"start"`
	TotalChars  int    `json:"total_chars"`
	Cached      bool   `json:"cached,omitempty"`
	FetchedAt   string `json:"fetched_at"`
	Note        string `json:"note,omitempty"`
	// Links of the main text, on the first window only (start 0).
	Links []Link `json:"links,omitempty"`
}

// thirdParty are the Result fields written by the page, not by us.
var thirdParty = envelope.ThirdParty{"text", "page.title", "page.byline", "page.site_name", "page.links[].text"}

// Result is the window of p from rune start, at most size runes (a size
// outside MinWindow..MaxWindow is clamped), for tool; next calls are named
// "call <tool> again with start=N".
func (p Page) Result(tool string, start, size int) Result {
	if size <= 0 {
		size = DefaultWindow
	}
	size = min(max(size, MinWindow), MaxWindow)
	start = max(start, 0)
	text, next, total := p.Window(start, size)
	res := Result{URL: p.URL, Text: text, Third: thirdParty, Coverage: envelope.Whole(), Page: Info{Title: p.Title, Byline: p.Byline,
		SiteName: p.SiteName, Published: p.Published, Language: p.Language, ContentType: p.ContentType, Readable: p.Readable,
		Start: start, TotalChars: total, Cached: p.Cached, FetchedAt: p.FetchedAt.UTC().Format(time.RFC3339)}}
	if start == 0 {
		res.Page.Links = p.Links
	}
	if !p.Readable {
		res.Page.Note = "no article found on the page: text is the whole page's text (menus and footers included)"
	}
	switch {
	case start >= total && total > 0:
		res.Coverage = envelope.Cut(envelope.Truncated, fmt.Sprintf("start %d is past the end of the text (%d characters)", start, total),
			fmt.Sprintf("call %s again with start=0", tool))
	case next > 0:
		res.Coverage = envelope.Cut(envelope.Truncated, fmt.Sprintf("characters %d-%d of %d of the page's text", next, total, total),
			fmt.Sprintf("call %s again with start=%d", tool, next))
	case p.TextCut || p.BodyCut:
		res.Coverage = envelope.Cut(envelope.Truncated, p.cutMissing(), "this reader does not read further into the page; open it in a browser for the rest")
	}
	return res
}

// cutMissing says what the reader's own bounds left out of a page.
func (p Page) cutMissing() string {
	if p.BodyCut {
		of := "a larger page"
		if p.BodyBytes > 0 {
			of = fmt.Sprintf("%d bytes", p.BodyBytes)
		}
		return fmt.Sprintf("the page past its first %d bytes (of %s)", p.BytesRead, of)
	}
	return "the page's text past the reader's limit"
}
