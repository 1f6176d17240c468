package fake

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"net/url"
	"strings"
	"time"
)

// rfc1123GMT is how Google writes dates: "Fri, 25 Sep 2026 13:53:48 GMT"
// (feed/testdata captures); Go's time.RFC1123 would print "UTC".
const rfc1123GMT = "Mon, 02 Jan 2006 15:04:05 GMT"

// MaxItems is Google's cap: a search feed holds about 100 items and has no
// pagination (source: ranahaani/GNews docs/backends/rss.md).
const MaxItems = 100

// publishers the fake's stories come from (// assumed: any real outlets do).
var publishers = []struct{ name, home string }{
	{"Reuters", "https://www.reuters.com"},
	{"The Guardian", "https://www.theguardian.com"},
	{"Bloomberg", "https://www.bloomberg.com"},
	{"countynewscenter.com", "https://www.countynewscenter.com"},
	{"Gulf News", "https://gulfnews.com"},
	{"Khaleej Times", "https://www.khaleejtimes.com"},
	{"BBC", "https://www.bbc.com"},
	{"The National", "https://www.thenationalnews.com"},
}

// Story is one generated item, before rendering.
type Story struct {
	ID        string
	Headline  string
	Publisher string
	Home      string
	Published time.Time
	Cluster   []Story // other coverage rendered in an <ol> (the story itself comes first)
}

// ArticleID makes an opaque current-format id: "CBMi" + URL-safe base64 of a
// token starting AU_yqL, which cannot be decoded to the publisher URL offline
// (source: SSujitX/google-news-url-decoder README.md; techempower-org/candela
// GoogleNewsUrlDecoder.kt).
func ArticleID(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	tok := "AU_yqL" + base64.RawURLEncoding.EncodeToString(sum[:18])
	return "CBMi" + base64.RawURLEncoding.EncodeToString([]byte(tok))
}

// Stories generates n (≤ MaxItems) stories for q, newest first, deterministic
// in q and now. Every 5th story is a cluster with two related entries (<ol>
// descriptions, as in feed/testdata/top-us-2026-06.xml), every 7th headline
// contains " - " itself (assumed: how often; real headlines can), and story
// 12 repeats story 3 under its own link and story 13 repeats story 4's link
// (duplicates: bubelov/vesti#134; // assumed: where in
// the feed duplicates fall).
func Stories(q string, n int, now time.Time) []Story {
	n = min(max(n, 0), MaxItems)
	out := make([]Story, 0, n)
	subject := strings.Trim(q, `"() `)
	if subject == "" {
		subject = "news"
	}
	for i := 0; i < n; i++ {
		p := publishers[i%len(publishers)]
		s := Story{
			ID:        ArticleID(fmt.Sprintf("%s#%d", q, i)),
			Headline:  fmt.Sprintf("Story %d about %s", i+1, subject),
			Publisher: p.name, Home: p.home,
			Published: now.Add(-time.Duration(i*17+3) * time.Minute).UTC().Truncate(time.Second),
		}
		if i%7 == 6 {
			s.Headline = fmt.Sprintf("Live - %s: update %d", subject, i+1)
		}
		switch {
		case i == 12 && n > 3:
			s.Headline, s.Publisher, s.Home = out[3].Headline, out[3].Publisher, out[3].Home
		case i == 13 && n > 4:
			s.ID = out[4].ID
		}
		if i%5 == 0 {
			for j := 1; j <= 2; j++ {
				rp := publishers[(i+j)%len(publishers)]
				s.Cluster = append(s.Cluster, Story{ID: ArticleID(fmt.Sprintf("%s#%d.%d", q, i, j)),
					Headline: fmt.Sprintf("Related coverage %d of story %d", j, i+1), Publisher: rp.name, Home: rp.home})
			}
		}
		out = append(out, s)
	}
	return out
}

// RenderOptions shape a rendered feed.
type RenderOptions struct {
	HL, GL, CEID string
	// CDATA wraps descriptions in CDATA instead of escaping them. Real
	// captures in feed/testdata escape the HTML; the original design
	// described CDATA, so both are served and parsed (// assumed).
	CDATA     bool
	BuildTime time.Time
}

// RenderSearch renders a search feed as Google does (channel and item
// structure from feed/testdata/search-us-2026-09-25.xml).
func RenderSearch(q string, stories []Story, o RenderOptions) []byte {
	var b strings.Builder
	link := "https://news.google.com/search?q=" + url.QueryEscape(q) + "&hl=" + o.HL + "&gl=" + o.GL + "&ceid=" + o.CEID
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><generator>NFE/5.0</generator>`)
	fmt.Fprintf(&b, `<title>%s</title><link>%s</link><language>%s</language><webMaster>news-webmaster@google.com</webMaster>`,
		html.EscapeString(`"`+q+`" - Google News`), html.EscapeString(link), html.EscapeString(o.HL))
	fmt.Fprintf(&b, `<copyright>Copyright © %d Google. All rights reserved. This XML feed is made available solely for the purpose of rendering Google News results within a personal feed reader for personal, non-commercial use. Any other use of the feed is expressly prohibited. By accessing this feed or using these results in any manner whatsoever, you agree to be bound by the foregoing restrictions.</copyright>`, o.BuildTime.Year())
	fmt.Fprintf(&b, `<lastBuildDate>%s</lastBuildDate>`, o.BuildTime.UTC().Format(rfc1123GMT))
	b.WriteString(`<image><title>Google News</title><url>https://lh3.googleusercontent.com/-DR60l-K8vnyi99NZovm9HlXyZwQ85GMDxiwJWzoasZYCUrPuUM_P_4Rb7ei03j-0nRs0c4F=w256</url><link>https://news.google.com/</link><height>256</height><width>256</width></image><description>Google News</description>`)
	for _, s := range stories {
		writeItem(&b, s, o.CDATA)
	}
	b.WriteString(`</channel></rss>`)
	return []byte(b.String())
}

func articleURL(id string) string { return "https://news.google.com/rss/articles/" + id + "?oc=5" }

func writeItem(b *strings.Builder, s Story, cdata bool) {
	entry := func(x Story) string {
		return `<a href="` + articleURL(x.ID) + `" target="_blank">` + html.EscapeString(x.Headline) + `</a>&nbsp;&nbsp;<font color="#6f6f6f">` + html.EscapeString(x.Publisher) + `</font>`
	}
	desc := entry(s)
	if len(s.Cluster) > 0 {
		desc = "<ol><li>" + desc + "</li>"
		for _, c := range s.Cluster {
			desc += "<li>" + entry(c) + "</li>"
		}
		desc += "</ol>"
	}
	if cdata {
		desc = "<![CDATA[" + desc + "]]>"
	} else {
		desc = html.EscapeString(desc)
	}
	fmt.Fprintf(b, `<item><title>%s</title><link>%s</link><guid isPermaLink="false">%s</guid><pubDate>%s</pubDate><description>%s</description><source url="%s">%s</source></item>`,
		html.EscapeString(s.Headline+" - "+s.Publisher), articleURL(s.ID), s.ID, s.Published.UTC().Format(rfc1123GMT), desc,
		html.EscapeString(s.Home), html.EscapeString(s.Publisher))
}

// unsupportedFeed is what /rss/unsupported serves: a 200 feed with one "This
// feed is not available." item linking to https://news.google.com/ (source:
// pygooglenews pygooglenews/__init__.py; // assumed: the exact channel
// markup, which was not captured).
func unsupportedFeed(now time.Time) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><generator>NFE/5.0</generator><title>Google News</title><link>https://news.google.com/</link><language>en-US</language><webMaster>news-webmaster@google.com</webMaster><lastBuildDate>` +
		now.UTC().Format(rfc1123GMT) + `</lastBuildDate><description>Google News</description><item><title>This feed is not available.</title><link>https://news.google.com/</link><guid isPermaLink="false">unsupported</guid><pubDate>` +
		now.UTC().Format(rfc1123GMT) + `</pubDate><description>This feed is not available.</description></item></channel></rss>`)
}

// sorryPage is Google's generic throttle page (source: iv-org/invidious#2519;
// // assumed: the exact markup, which varies).
const sorryPage = `<!DOCTYPE html><html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><title>https://news.google.com/rss/search</title></head><body><div><b>Sorry...</b></div><div>We're sorry... but your computer or network may be sending automated queries. To protect our users, we can't process your request right now.</div><div>Our systems have detected unusual traffic from your computer network.</div></body></html>`

// otherPage is a 200 HTML page that is not a feed (// assumed: e.g. a consent
// interstitial or a captive portal in front of the client).
const otherPage = `<!DOCTYPE html><html><head><title>Before you continue to Google</title></head><body><form action="https://consent.google.com/save"><button>Accept all</button></form></body></html>`
