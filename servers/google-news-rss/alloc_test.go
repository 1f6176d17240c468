package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// TestAllocsAtFloor: a cached fetch_search_feed (28 items from the store)
// allocates at most 1.3× what a bare mcp-go server answering the very same
// bytes does (issue 20).
func TestAllocsAtFloor(t *testing.T) {
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewProduction(t, app(&tools.Config{Clock: clk}), "--base-url", base)
	res := servetest.CallClient(t, c, "build_search_feed", map[string]any{"terms": []string{"shipping"}})
	args := map[string]any{"query_key": servetest.Decode[built](t, res).QueryKey}
	servetest.GuardAllocs(t, c, "fetch_search_feed", args)
	if f.Count() != 1 {
		t.Fatalf("%d polls; the guard must measure the cached path", f.Count())
	}
}
