// Package feed fetches and normalizes Google News RSS search feeds: the
// upstream client (10 s, at most 2 attempts, capped body), the throttle and
// /rss/unsupported detection, and the parse of the feed into plain items.
// Facts: the captures in testdata/SOURCES.md (document structure) and the
// public reports cited where each quirk is handled.
package feed

import (
	"bytes"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/mmcdole/gofeed/rss"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Item is one normalized story.
type Item struct {
	Title           string `json:"title"`
	Publisher       string `json:"publisher"`
	PublisherDomain string `json:"domain"`
	URL             string `json:"url"`
	ArticleID       string `json:"-"` // the id inside URL (tests)
	Published       string `json:"published,omitempty"`
	Snippet         string `json:"snippet,omitempty"`
	// PublisherURL is the article on the publisher's site, when its Google
	// link was decoded before (read_article decodes; the state keeps it;
	// read_article says why a link Google would not resolve failed).
	PublisherURL string `json:"publisher_url,omitempty"`
}

// Feed is a parsed search feed.
type Feed struct {
	Title string // `"{q}" - Google News` for a search feed
	Link  string
	Items []Item
	// Sent is how many items Google sent, before duplicates were dropped.
	Sent int
}

// CapItems is the most items Google sends in one search feed: it has no
// paging, so a busy query is cut there silently (source: ranahaani/GNews
// docs/backends/rss.md, "limited to 100 results"; kotartemiy/pygooglenews#19).
const CapItems = 100

// Capped reports whether the feed hit Google's cap: older matching stories
// are left out, and only a narrower query reaches them.
func (f Feed) Capped() bool { return f.Sent >= CapItems }

// MaxSnippet bounds a snippet in runes.
const MaxSnippet = 400

// Bounds on what is parsed: Google sends ~100 items with descriptions of a
// few hundred bytes (a cluster's <ol> a few KB); anything far beyond is not a
// search feed, and HTML parsing of a huge description costs time for nothing.
const (
	maxItems       = 300
	maxDescription = 32 << 10
)

// Errors of a 200 answer that is not news. Each is an *envelope.Error built
// by the functions below, so tools return them as they are.

// throttledMark is set in details of errors that mean "Google is throttling
// us": the window claim is kept and the feed deferred.
const throttledMark = "throttled"

// Throttled reports whether err is Google throttling (429, 503, 403 or the
// "Sorry…" HTML page).
func Throttled(err error) bool {
	e, ok := err.(*envelope.Error)
	return ok && e.Details[throttledMark] == true
}

func throttled(why string, status int) *envelope.Error {
	e := envelope.New(envelope.RateLimited, "Google News is throttling this server (%s): nothing was fetched, and no request is sent to it until retry_after_s has passed (fetch_search_feed serves a kept query's last poll meanwhile)", why).
		WithDetail(throttledMark, true)
	if status != 0 {
		e = e.WithDetail("http_status", status)
	}
	return e
}

// Parse normalizes a feed body: it refuses HTML (the "Sorry…" throttle page or
// any other page), malformed or truncated XML and the /rss/unsupported feed,
// splits publisher suffixes off titles, converts dates to RFC 3339, strips
// the description's HTML, and drops duplicates by link, then by normalized
// title and publisher (the same headline from a second publisher is kept).
func Parse(body []byte, edition string) (Feed, error) {
	return parse(body, edition, numericZones)
}

// parse is Parse with the body handed to gofeed through zones (numericZones;
// the identity in the test that proves it changes nothing).
func parse(body []byte, edition string, zones func([]byte) []byte) (Feed, error) {
	if isHTML(body) {
		// Throttling can come as a 200 HTML "Sorry…" page
		// (iv-org/invidious#2519); check before parsing.
		if bytes.Contains(body, []byte("Sorry")) || bytes.Contains(body, []byte("unusual traffic")) {
			return Feed{}, throttled("its \"Sorry…\" page", 0)
		}
		return Feed{}, envelope.New(envelope.UpstreamError, "Google News answered with an HTML page, not an RSS feed; check GOOGLE_NEWS_BASE_URL")
	}
	p := rss.Parser{}
	src := zones(body)
	f, err := p.Parse(bytes.NewReader(src))
	if err == nil && len(src) != len(body) && rewroteText(f) {
		f, err = p.Parse(bytes.NewReader(body))
	}
	if err != nil {
		return Feed{}, envelope.New(envelope.UpstreamError, "Google News sent a malformed or truncated feed; try again shortly").
			WithRetryable(true).WithCause(err)
	}
	out := Feed{Title: strings.TrimSpace(f.Title), Link: strings.TrimSpace(f.Link), Items: make([]Item, 0, len(f.Items)), Sent: len(f.Items)}
	seenLink := map[string]bool{}
	seenTitle := map[string]bool{}
	for i, it := range f.Items {
		if it == nil || i >= maxItems {
			continue
		}
		if unsupportedItem(it.Link) {
			return Feed{}, Unsupported(edition)
		}
		item := normalizeItem(it)
		if item.URL == "" && item.Title == "" {
			continue
		}
		lk, tk := linkKey(item), storyKey(item)
		if (lk != "" && seenLink[lk]) || (tk != "" && seenTitle[tk]) {
			continue
		}
		seenLink[lk], seenTitle[tk] = true, true
		out.Items = append(out.Items, item)
	}
	return out, nil
}

// Unsupported is the error for the /rss/unsupported answer: Google does not
// serve this edition (source: pygooglenews pygooglenews/__init__.py raises
// "This feed is not available").
func Unsupported(edition string) *envelope.Error {
	return envelope.New(envelope.UpstreamError,
		"Google News answered \"This feed is not available\" (/rss/unsupported) for edition %s; Google no longer serves it: pick another edition from list_editions", edition).
		WithDetail("edition", edition)
}

// unsupportedItem: the single item of /rss/unsupported links to
// https://news.google.com/ itself, never to an article (pygooglenews
// pygooglenews/__init__.py; assumed: the item's exact markup).
func unsupportedItem(link string) bool {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || u.Host != "news.google.com" {
		return false
	}
	return u.Path == "" || u.Path == "/"
}

func isHTML(body []byte) bool {
	b := bytes.TrimLeftFunc(body, unicode.IsSpace)
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(b) > 64 {
		b = b[:64]
	}
	l := bytes.ToLower(b)
	return bytes.HasPrefix(l, []byte("<!doctype html")) || bytes.HasPrefix(l, []byte("<html"))
}

func normalizeItem(it *rss.Item) Item {
	var out Item
	out.URL = strings.TrimSpace(it.Link)
	if it.GUID != nil {
		out.ArticleID = strings.TrimSpace(it.GUID.Value)
	}
	title := clean(it.Title)
	var firstPub string
	out.Snippet, firstPub = describe(it.Description)
	if it.Source != nil {
		out.Publisher = clean(it.Source.Title)
		out.PublisherDomain = domainOf(it.Source.URL)
	}
	if out.Publisher == "" {
		// no <source> (seen in a top-stories capture): the description's
		// <font> names the publisher of its first entry
		out.Publisher = firstPub
	}
	// "Headline - Source": strip the suffix only when it is exactly the
	// <source> name; headlines can contain " - " themselves.
	if out.Publisher != "" {
		if h, ok := strings.CutSuffix(title, " - "+out.Publisher); ok && strings.TrimSpace(h) != "" {
			title = strings.TrimSpace(h)
		}
	}
	out.Title = title
	// The description's first entry is the story itself, "Headline
	// (Publisher)": title and publisher already say it, so the snippet keeps
	// only the related coverage (empty for a single story).
	if own := title + " (" + out.Publisher + ")"; out.Snippet == own {
		out.Snippet = ""
	} else if rest, ok := strings.CutPrefix(out.Snippet, own+"; "); ok {
		out.Snippet = rest
	}
	out.Published = published(it)
	return out
}

// published converts the RFC 1123 pubDate (testdata captures: "Fri, 25 Sep
// 2026 13:53:48 GMT") to RFC 3339 UTC; an unparsable date is left out.
func published(it *rss.Item) string {
	if it.PubDateParsed != nil {
		return it.PubDateParsed.UTC().Format(time.RFC3339)
	}
	for _, layout := range []string{time.RFC1123, time.RFC1123Z} {
		if t, err := time.Parse(layout, strings.TrimSpace(it.PubDate)); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return ""
}

// describe turns the description's HTML (an <a> plus a <font> publisher, or an
// <ol> of such entries for a cluster, testdata/top-us-2026-06.xml) into plain text: "Headline
// (Publisher); Related headline (Publisher)".
func describe(html string) (snippet, firstPublisher string) {
	if strings.TrimSpace(html) == "" {
		return "", ""
	}
	if len(html) > maxDescription {
		html = html[:maxDescription] // the parser closes what the cut leaves open
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		return clip(clean(html)), ""
	}
	lis := doc.Find("li")
	if lis.Length() == 0 {
		// the single-story variant: <a>Headline</a>&nbsp;&nbsp;<font>Source</font>
		lis = doc.Find("body")
	}
	var parts []string
	lis.Each(func(_ int, li *goquery.Selection) {
		a := li.Find("a").First()
		t := clean(a.Text())
		pub := clean(li.Find("font").First().Text())
		if t == "" {
			t = clean(li.Text())
		}
		if t == "" {
			return
		}
		if len(parts) == 0 {
			firstPublisher = pub
		}
		if pub != "" {
			parts = append(parts, t+" ("+pub+")")
		} else {
			parts = append(parts, t)
		}
	})
	if len(parts) == 0 {
		return clip(clean(doc.Text())), ""
	}
	return clip(strings.Join(parts, "; ")), firstPublisher
}

// clean decodes nothing (gofeed and goquery already decoded entities) but
// turns non-breaking spaces into spaces and collapses whitespace.
// clean also drops the invisible characters that would say more to a
// model than the text shows a person (envelope.CleanThirdParty).
func clean(s string) string {
	s = strings.ReplaceAll(envelope.CleanThirdParty(s), "\u00a0", " ")
	return strings.Join(strings.Fields(s), " ")
}

func clip(s string) string {
	r := []rune(s)
	if len(r) <= MaxSnippet {
		return s
	}
	return strings.TrimSpace(string(r[:MaxSnippet-1])) + "…"
}

func domainOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// linkKey is the article id when the link has one (links differ only by
// ?oc=5 and the old __i/rss/rd form, miniflux/v2#1390), else the link.
func linkKey(it Item) string {
	if u, err := url.Parse(it.URL); err == nil && u.Host != "" {
		if i := strings.LastIndex(u.Path, "/articles/"); i >= 0 {
			return u.Path[i+len("/articles/"):]
		}
		u.RawQuery, u.Fragment = "", ""
		return u.String()
	}
	return it.URL
}

// storyKey is the folded title and publisher: the same headline from the same
// publisher under two links (two clusters) is one story, while a second
// publisher's identical headline (wire copy) is another (dedupe on the
// article id, then on title and source).
func storyKey(it Item) string {
	t := titleKey(it.Title)
	if t == "" {
		return ""
	}
	p := titleKey(it.Publisher)
	if p == "" {
		p = it.PublisherDomain
	}
	return t + "\x00" + p
}

// titleKey folds case, punctuation and spacing.
func titleKey(t string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(t) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		default:
			space = true
		}
	}
	return b.String()
}
