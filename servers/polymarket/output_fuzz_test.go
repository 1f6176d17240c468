package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

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
	def := servetest.ToolDef(f, c, "get_market")
	_, slug, _, _ := fk.Market(3)
	if res := servetest.CallClient(f, c, "get_market", map[string]any{"identifier": slug}); res.IsError {
		f.Fatalf("seed call: %+v", res.Content)
	}
	real := proxy.Recorded()
	servetest.SeedAnswers(f, real)
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		proxy.Set(body)
		// A new slug each time: a cached market would not read the body.
		res := servetest.CallClient(t, c, "get_market", map[string]any{"identifier": fmt.Sprintf("fuzz-market-%d", n.Add(1))})
		if res.IsError {
			if bytes.Equal(body, real) {
				t.Fatalf("the upstream's real answer failed: %+v", res.Content)
			}
			return
		}
		if err := servetest.CheckOutput(def, res); err != nil {
			t.Fatalf("answer breaks the published output schema: %v\nbody: %q", err, body)
		}
	})
}
