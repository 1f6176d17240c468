package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answer behind it.
const maxListRatio = 0.30

// TestListResultRatio measures the feed tools' results (the text block and
// the structured content, the larger) against the RSS bytes Google News sent
// for them, on the fake's feeds (items with the captured feeds' elements: title,
// link, guid, pubDate, the description's HTML list, source).
func TestListResultRatio(t *testing.T) {
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	t.Cleanup(stop)
	proxyURL, upstream := servetest.CountingProxy(t, base)
	e := start(t, setup{fake: f, clock: clk, base: proxyURL})
	key := servetest.Decode[built](t, e.call(t, "build_search_feed", map[string]any{"q": "central bank rates", "edition": "US"})).QueryKey

	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"preview_search_feed", map[string]any{"q": "boeing OR airbus", "edition": "IN"}},
		{"fetch_search_feed", map[string]any{"query_key": key}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			upstream.Store(0)
			res := e.call(t, tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%s", servetest.Text(res))
			}
			servetest.ListRatio(t, tc.tool, res, upstream.Load(), 2000, maxListRatio)
		})
	}
}
