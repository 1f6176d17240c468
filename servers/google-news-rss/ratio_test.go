package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answer behind it.
const maxListRatio = 0.30

// countingWriter counts the bytes the fake sends back through the proxy.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	return w.ResponseWriter.Write(b)
}

// TestListResultRatio measures the feed tools' results (the text block and
// the structured content, the larger) against the RSS bytes Google News sent
// for them, on the fake's feeds (items with the reference's elements: title,
// link, guid, pubDate, the description's HTML list, source).
func TestListResultRatio(t *testing.T) {
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	t.Cleanup(stop)
	target, _ := url.Parse(base)
	var upstream atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rp.ServeHTTP(countingWriter{w, &upstream}, r)
	}))
	t.Cleanup(proxy.Close)
	e := start(t, setup{fake: f, clock: clk, base: proxy.URL})
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
			raw := upstream.Load()
			text := len(res.Content[0].(mcp.TextContent).Text)
			sc, _ := json.Marshal(res.StructuredContent)
			ratio := float64(max(text, len(sc))) / float64(raw)
			t.Logf("%s: upstream %d B, text %d B, structured %d B: %.0f%%", tc.tool, raw, text, len(sc), 100*ratio)
			if testing.Verbose() {
				t.Log(res.Content[0].(mcp.TextContent).Text[:min(text, 1200)])
			}
			if raw < 2000 {
				t.Fatalf("the fake answered only %d B: nothing to measure", raw)
			}
			if ratio > maxListRatio {
				t.Errorf("%s: result is %.0f%% of the upstream feed, budget %.0f%%", tc.tool, 100*ratio, 100*maxListRatio)
			}
		})
	}
}
