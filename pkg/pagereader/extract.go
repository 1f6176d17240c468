package pagereader

import (
	"bytes"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Page is one page read. Every text field is third-party text, cleaned with
// envelope.CleanThirdParty. It round-trips through JSON (the cache).
type Page struct {
	Requested   string `json:"requested"`
	URL         string `json:"url"` // after redirects
	ContentType string `json:"content_type"`
	Charset     string `json:"charset,omitempty"`
	Title       string `json:"title,omitempty"`
	Byline      string `json:"byline,omitempty"`
	SiteName    string `json:"site_name,omitempty"`
	// Published is the page's own publication time (its metadata: JSON-LD,
	// Open Graph, <time>), RFC 3339, "" when it states none.
	Published string `json:"published,omitempty"`
	Language  string `json:"language,omitempty"`
	Excerpt   string `json:"excerpt,omitempty"`
	// Text is the main text as Markdown (HTML) or as sent (plain text), at
	// most Config.MaxText runes; TextCut says more was there.
	Text    string `json:"text"`
	TextCut bool   `json:"text_cut,omitempty"`
	// Readable is false when no article was found and Text is the whole
	// page's text.
	Readable bool   `json:"readable"`
	Links    []Link `json:"links"`
	// BytesRead of the body (at most Config.MaxBytes); BodyCut says the page
	// was larger (BodyBytes, its Content-Length, when it said).
	BytesRead int64     `json:"bytes_read"`
	BodyBytes int64     `json:"body_bytes,omitempty"`
	BodyCut   bool      `json:"body_cut,omitempty"`
	FetchedAt time.Time `json:"fetched_at"`
	Cached    bool      `json:"-"`
}

// Link is one link of the main text.
type Link struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// textTypes are read as text as they are.
var textTypes = map[string]bool{
	"text/plain": true, "text/markdown": true, "text/x-markdown": true, "text/csv": true,
	"application/json": true, "text/xml": true, "application/xml": true, "text/x-rst": true,
}

// extractPage turns a body into a Page.
func extractPage(body []byte, contentType string, u *url.URL, maxText int) (Page, error) {
	mt := mediaType(contentType)
	if mt == "" {
		mt = sniff(body)
	}
	p := Page{URL: u.String(), ContentType: mt, Links: []Link{}}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		text, name, err := decode(body, contentType)
		if err != nil {
			return Page{}, err
		}
		p.Charset = name
		if err := readArticle(&p, text, u); err != nil {
			return Page{}, err
		}
	case textTypes[mt] || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml"):
		text, name, err := decode(body, contentType)
		if err != nil {
			return Page{}, err
		}
		p.Charset, p.Text, p.Readable = name, strings.TrimSpace(text), true
	case mt == "application/pdf":
		return Page{}, envelope.New(envelope.UpstreamError, "%s is a PDF; this reader reads HTML and text pages only (no PDF text extraction)", extract.Clip(u.Redacted(), 200)).
			WithDetail("content_type", mt)
	default:
		return Page{}, envelope.New(envelope.UpstreamError, "%s is %s, not a page of text; this reader reads HTML and text pages only", extract.Clip(u.Redacted(), 200), extract.Clip(orDefault(mt, "of no stated type"), 60)).
			WithDetail("content_type", mt)
	}
	p.Text = envelope.CleanThirdParty(p.Text)
	if n := utf8.RuneCountInString(p.Text); n > maxText {
		p.Text, p.TextCut = runePrefix(p.Text, maxText), true
	}
	for _, s := range []*string{&p.Title, &p.Byline, &p.SiteName, &p.Excerpt, &p.Language} {
		*s = envelope.CleanThirdParty(strings.TrimSpace(*s))
	}
	return p, nil
}

// sniff is the media type of a body sent without one (HTML or text).
func sniff(body []byte) string {
	head := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 512)]))
	if bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")) || bytes.Contains(head, []byte("<body")) {
		return "text/html"
	}
	if utf8.Valid(body[:min(len(body), 4096)]) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// decode converts body to UTF-8 from the charset its Content-Type, BOM or
// <meta> names (WHATWG's encoding sniffing, golang.org/x/net/html/charset).
func decode(body []byte, contentType string) (string, string, error) {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	if enc == encoding.Nop || name == "utf-8" {
		return strings.ToValidUTF8(string(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))), "\uFFFD"), "utf-8", nil
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return "", "", envelope.New(envelope.UpstreamError, "the page's text is not valid %s; it cannot be read", name)
	}
	return string(out), name, nil
}

// readArticle fills p from an HTML document: readability's article and its
// metadata, as Markdown; without an article, the whole body's text.
func readArticle(p *Page, doc string, u *url.URL) error {
	art, err := readability.FromReader(strings.NewReader(doc), u)
	root := art.Node
	if err == nil && root != nil && strings.TrimSpace(textOf(root)) != "" {
		p.Readable = true
	} else {
		// No article: the body, scripts and styles left out.
		n, perr := html.Parse(strings.NewReader(doc))
		if perr != nil {
			return envelope.New(envelope.UpstreamError, "the page is not readable HTML")
		}
		dropTags(n, "script", "style", "noscript", "template", "svg", "head")
		root = n
	}
	md, err := htmltomarkdown.ConvertNode(root)
	if err != nil {
		return envelope.New(envelope.UpstreamError, "the page's HTML could not be turned into text")
	}
	p.Text = strings.TrimSpace(string(md))
	p.Title, p.Byline, p.SiteName, p.Language, p.Excerpt = art.Title(), art.Byline(), art.SiteName(), art.Language(), art.Excerpt()
	if p.Title == "" {
		p.Title = titleOf(doc)
	}
	if t, err := art.PublishedTime(); err == nil && !t.IsZero() {
		p.Published = t.UTC().Format(time.RFC3339)
	}
	p.Links = linksOf(root, u)
	return nil
}

// linksOf lists the http(s) links of n, absolute, deduplicated, at most maxLinks.
func linksOf(n *html.Node, base *url.URL) []Link {
	out := []Link{}
	seen := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if len(out) >= maxLinks {
			return
		}
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key != "href" {
					continue
				}
				ref, err := url.Parse(strings.TrimSpace(a.Val))
				if err != nil {
					break
				}
				abs := base.ResolveReference(ref)
				abs.Fragment, abs.RawFragment = "", ""
				if (abs.Scheme != "http" && abs.Scheme != "https") || abs.User != nil || seen[abs.String()] {
					break
				}
				seen[abs.String()] = true
				text := envelope.CleanThirdParty(strings.Join(strings.Fields(textOf(n)), " "))
				out = append(out, Link{Text: extract.Clip(text, 120), URL: abs.String()})
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// dropTags removes every element named in tags from n's tree.
func dropTags(n *html.Node, tags ...string) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && contains(tags, c.Data) {
			n.RemoveChild(c)
		} else {
			dropTags(c, tags...)
		}
		c = next
	}
}

// titleOf is the document's <title>.
func titleOf(doc string) string {
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			if name, _ := z.TagName(); string(name) == "title" {
				if z.Next() == html.TextToken {
					return strings.Join(strings.Fields(string(z.Text())), " ")
				}
				return ""
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func runePrefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
