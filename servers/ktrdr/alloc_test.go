package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// TestAllocsAtFloor: get_data_summary served from its cache (issue 20: reads
// served from the server's cache) allocates at most 1.3× a bare mcp-go server
// answering the very same bytes: the difference is the spine plus the cache
// lookup. The guard's first call fills the cache from the fake.
func TestAllocsAtFloor(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	c := servetest.NewProduction(t, app(&tools.Config{Retries: -1}), "--api-url", base)
	servetest.GuardAllocs(t, c, "get_data_summary", map[string]any{"symbol": "AAPL", "timeframe": "1h"})
	if n := f.Count("GET", fake.APIPrefix+"/data/AAPL/1h"); n != 1 {
		t.Fatalf("the guarded calls made %d backend requests, want 1 (served from the cache)", n)
	}
}
