package feed

import (
	"bytes"
	"strings"
	"time"

	"github.com/mmcdole/gofeed/rss"
)

// Google writes pubDate as "Fri, 25 Sep 2026 13:53:48 GMT" (testdata
// captures). gofeed v1.4.2 tries every numeric-zone layout before the
// named-zone ones (mmcdole/gofeed#351), so each such date costs ~30 failed
// time.Parse calls, each building an error: half the bytes Parse allocates
// and ~40% of its time (BenchmarkNormalizeDates). The same instant written
// "+0000" matches its fourth layout (RFC1123Z). Remove when a gofeed
// release carries the reordering (mmcdole/gofeed#352).
const googleDate = "Mon, 02 Jan 2006 15:04:05 GMT"

var (
	pubDateOpen  = []byte("<pubDate>")
	pubDateClose = []byte("</pubDate>")
	gmtClose     = []byte(" GMT</pubDate>")
)

// numericZones returns body with each <pubDate> holding exactly Google's
// GMT form rewritten to +0000, or body itself when there is none. A body
// with CDATA is left alone: there "</pubDate>" could be text, not a tag;
// elsewhere it can be too (markup inside a text element), which Parse
// catches with rewroteText.
func numericZones(body []byte) []byte {
	if !bytes.Contains(body, gmtClose) || bytes.Contains(body, []byte("<![CDATA[")) {
		return body
	}
	var out []byte
	done := 0          // body[:done] is in out
	for from := 0; ; { // from: just past the previous </pubDate>
		end := bytes.Index(body[from:], pubDateClose)
		if end < 0 {
			break
		}
		end += from
		at := bytes.LastIndex(body[from:end], pubDateOpen)
		if at < 0 {
			from = end + len(pubDateClose)
			continue
		}
		d := body[from+at+len(pubDateOpen) : end]
		from = end + len(pubDateClose)
		if _, err := time.Parse(googleDate, string(d)); err != nil { // "GMT" is literal in the layout
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(body)+len(body)/64)
		}
		out = append(out, body[done:end-len(" GMT")]...)
		out = append(out, " +0000"...)
		done = end
	}
	if out == nil {
		return body
	}
	return append(out, body[done:]...)
}

// rewroteText reports whether a rewrite landed in text Parse reads, not in
// a <pubDate> element: gofeed keeps markup nested in a text element (a
// <link> holding a <pubDate>) as text. Parse then reads the body as sent.
func rewroteText(f *rss.Feed) bool {
	mark := "+0000" + string(pubDateClose)
	in := func(ss ...string) bool {
		for _, s := range ss {
			if strings.Contains(s, mark) {
				return true
			}
		}
		return false
	}
	if in(f.Title, f.Link) {
		return true
	}
	for _, it := range f.Items {
		if it == nil {
			continue
		}
		if in(it.Title, it.Link, it.Description, it.PubDate) ||
			(it.GUID != nil && in(it.GUID.Value)) || (it.Source != nil && in(it.Source.Title, it.Source.URL)) {
			return true
		}
	}
	return false
}
