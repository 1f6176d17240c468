package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// TestAllocsAtFloor: a cached get_market allocates at most 1.3× what a bare
// mcp-go server answering the very same bytes does (issue 20).
func TestAllocsAtFloor(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	cfg := configForTest()
	cfg.PublicPerMinute = 1 << 30 // the guard measures the call, not the limiter's refusals
	c := servetest.NewProduction(t, app(cfg), "--gamma-url", base, "--clob-url", base, "--data-url", base,
		"--btc-url", base, "--btc-fallback-url", base)
	id, _, _, _ := f.Market(3)
	servetest.GuardAllocs(t, c, "get_market", map[string]any{"identifier": id})
	if n := f.Count(fake.RouteMarket); n > 1 {
		t.Fatalf("%d Gamma requests: the guard must measure the cached path", n)
	}
}
