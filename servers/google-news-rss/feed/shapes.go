package feed

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/mmcdole/gofeed/rss"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// Shapes: what this client reads from Google News' one route, the RSS 2.0
// search feed (testdata/SOURCES.md for the captures): per item <title>, <link> (a news.google.com/rss/articles/
// redirect), <guid> (the article id), <pubDate> (RFC 1123) and, when
// present, <source url="...">. Errors come as HTML pages (the 404 page, the
// "Sorry…" throttle page); anything else in an error answer is new.
var Shapes = []drift.Shape{{Route: "search feed", Check: checkFeed, ErrorCheck: checkErrorPage}}

// articlePrefix is where every item link of a search feed points.
const articlePrefix = "https://news.google.com/rss/articles/"

func checkFeed(body []byte) []drift.Finding {
	if isHTML(body) {
		return nil // the Sorry page: a throttle, reported by the client
	}
	f, err := (&rss.Parser{}).Parse(bytes.NewReader(body))
	if err != nil {
		return []drift.Finding{{Kind: drift.Malformed, Detail: "the answer is not an RSS feed"}}
	}
	var out []drift.Finding
	missing := map[string]bool{}
	note := func(kind, path, detail string) {
		if !missing[kind+path] {
			missing[kind+path] = true
			out = append(out, drift.Finding{Kind: kind, Path: path, Detail: detail})
		}
	}
	for i, it := range f.Items {
		at := fmt.Sprintf("item[%d]", i)
		if strings.TrimSpace(it.Title) == "" {
			note(drift.Missing, "item.title", at+" has no <title>")
		}
		if strings.TrimSpace(it.PubDate) == "" {
			note(drift.Missing, "item.pubDate", at+" has no <pubDate>")
		} else if it.PubDateParsed == nil {
			note(drift.Retyped, "item.pubDate", fmt.Sprintf("%s <pubDate> %q is not an RFC 1123 date", at, clip(it.PubDate)))
		}
		if it.GUID == nil || strings.TrimSpace(it.GUID.Value) == "" {
			note(drift.Missing, "item.guid", at+" has no <guid>")
		}
		switch link := strings.TrimSpace(it.Link); {
		case link == "":
			note(drift.Missing, "item.link", at+" has no <link>")
		case !strings.HasPrefix(link, articlePrefix) && link != "https://news.google.com/":
			u, _ := url.Parse(link)
			where := "an unparsable URL"
			if u != nil {
				where = u.Host + u.Path
			}
			note(drift.NewEnum, "item.link", fmt.Sprintf("%s links to %s, not %s…", at, clip(where), articlePrefix))
		}
		if it.Source != nil && strings.TrimSpace(it.Source.URL) == "" {
			note(drift.Missing, "item.source@url", at+" has a <source> without url")
		}
	}
	return out
}

func checkErrorPage(body []byte) []drift.Finding {
	if len(bytes.TrimSpace(body)) == 0 || isHTML(body) {
		return nil
	}
	return []drift.Finding{{Kind: drift.ErrorBody, Detail: "the error answer is not Google's HTML page"}}
}

// Probes: one search feed, as the tools ask it (q, hl, gl, ceid of the US
// English edition; one request, well inside Google's informal limits).
func (c *Client) Probes() []drift.Probe {
	return []drift.Probe{{Upstream: "Google News", Route: "search feed", Path: "/rss/search",
		Query: url.Values{"q": {"economy"}, "hl": {"en-US"}, "gl": {"US"}, "ceid": {"US:en"}}, Send: c.up.Sender()}}
}
