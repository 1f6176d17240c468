package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// TestFaultTable runs every google-news-rss read tool against a Google that
// fails, cuts or empties its answers, or throttles with its "Sorry…" page:
// each answers an error or says its result is not whole; publishers' titles
// and names arrive marked as third-party text.
func TestFaultTable(t *testing.T) {
	t.Setenv("MCPFLEET_FETCH_ALLOW_LOOPBACK", "1")
	site := publisherSite(t)
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	t.Cleanup(stop)
	connect := func(t testing.TB, base string) *servetest.Conn {
		cfg := &tools.Config{Clock: clk, RetryWait: 10 * time.Millisecond, WaitFor: 3 * time.Second}
		return servetest.New(t, app(cfg), "--base-url", base, "--timeout", "2s", "--budget-burst", "1000")
	}
	feed := map[string]any{"q": "dubai ports", "limit": 3}
	servetest.FaultTable{
		Upstream: base,
		Connect:  connect,
		Exempt: map[string]string{
			"list_editions":     "the editions table is compiled in",
			"explain_operators": "the operator reference is compiled in",
			"build_search_feed": "builds the query and feed URL locally (no network)",
		},
		Rows: []servetest.FaultRow{
			{Tool: "preview_search_feed", Args: feed, ThirdParty: []string{"title", "source"}},
			{Tool: "fetch_search_feed", ThirdParty: []string{"title", "source"}, Prepare: func(t testing.TB, c *servetest.Conn) map[string]any {
				b := servetest.Decode[built](t, c.Call(t, "build_search_feed", map[string]any{"q": "dubai ports"}))
				return map[string]any{"query_key": b.QueryKey}
			}},
			{Tool: "read_article", Prepare: func(t testing.TB, c *servetest.Conn) map[string]any {
				items := servetest.Decode[struct {
					Items []struct {
						URL string `json:"url"`
					} `json:"items"`
				}](t, c.Call(t, "preview_search_feed", feed)).Items
				if len(items) == 0 {
					t.Fatal("no items")
				}
				id := strings.TrimSuffix(strings.TrimPrefix(items[0].URL, "https://news.google.com/rss/articles/"), "?oc=5")
				f.SetArticle(id, site.URL+"/business/ports-record")
				return map[string]any{"url": items[0].URL}
			}},
		},
		Refusals: []servetest.Refusal{
			{Name: "429 sorry page", Status: 429, ContentType: "text/html; charset=utf-8", Body: sorryHTML,
				Source: "iv-org/invidious#2519"},
			{Name: "200 sorry page", Status: 200, ContentType: "text/html; charset=utf-8", Body: sorryHTML,
				Source: "iv-org/invidious#2519 (assumed: that it can come with a 200)"},
		},
	}.Run(t)
}

// sorryHTML is Google's throttling page (iv-org/invidious#2519).
const sorryHTML = `<!DOCTYPE html><html><head><title>https://news.google.com/rss/search</title></head><body><div><b>Sorry...</b></div><div>We're sorry... but your computer or network may be sending automated queries.</div><div>Our systems have detected unusual traffic from your computer network.</div></body></html>`
