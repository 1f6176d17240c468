package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// FuzzGetMarketOutput: whatever Gamma answers for a market, get_market either
// fails with an envelope error or answers something that conforms to its
// published output schema (production validates no result per call; issue
// 20). The seed is the fake's real market.
func FuzzGetMarketOutput(f *testing.F) {
	fk := fake.New(fake.Options{})
	base, stop := fk.Start()
	f.Cleanup(stop)
	proxy := servetest.NewSwapProxy(f, base, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/markets/slug/") },
		"application/json")
	cfg := configForTest()
	cfg.PublicPerMinute = 1 << 30 // the target measures answers, not the limiter's refusals
	c := servetest.NewProduction(f, app(cfg), "--gamma-url", proxy.URL, "--clob-url", base, "--data-url", base,
		"--btc-url", base, "--btc-fallback-url", base)
	_, slug, _, _ := fk.Market(3)
	var n atomic.Int64
	// The fake's slug first (the seed), then a new slug each time: a cached
	// market would not read the body.
	call := func(t testing.TB) *mcp.CallToolResult {
		id := slug
		if i := n.Add(1); i > 1 {
			id = fmt.Sprintf("fuzz-market-%d", i)
		}
		return servetest.CallClient(t, c, "get_market", map[string]any{"identifier": id})
	}
	def, real := servetest.ToolDef(f, c, "get_market"), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}
