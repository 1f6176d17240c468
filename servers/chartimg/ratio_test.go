package main

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answer.
const maxListRatio = 0.30

// TestListResultRatio measures get_exchanges and get_symbols (the list tools)
// against the raw bytes the fake sends for the same list: the text block the
// model reads and the structured content, each within maxListRatio.
func TestListResultRatio(t *testing.T) {
	e := start(t, setup{})
	cases := []struct {
		tool, path string
		args       map[string]any
		ceiling    float64 // 0: maxListRatio
	}{
		// The v3 list is bare ids ({updatedAt, payload: [id…]}, docs ›
		// TradingView Snapshot v3: no name or type), 408 B for the fake's 42.
		// The result adds each id's type (the lists are keyed by it) and the
		// 8 names that differ from their id, which is what an agent picks an
		// exchange by; it sends count, cached and stale, and no longer
		// chart-img's updatedAt (nothing a model can act on). So it is bigger
		// than its source by design (165%; the text block, 521 B, is the
		// same lists), plus "complete": true, the result contract every list
		// carries (169%); the ceiling guards growth.
		{"get_exchanges", "/v3/tradingview/exchange/list", nil, 1.70},
		{"get_symbols", "/v3/tradingview/exchange/BINANCE", map[string]any{"exchange": "BINANCE"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			req, _ := http.NewRequest("GET", e.base+tc.path, nil)
			req.Header.Set("x-api-key", "test-key")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != 200 {
				t.Fatalf("GET %s: %d %v", tc.path, res.StatusCode, err)
			}
			out := e.call(t, tc.tool, tc.args)
			if out.IsError {
				t.Fatalf("%+v", out.Content)
			}
			text := len(out.Content[0].(mcp.TextContent).Text)
			sc, _ := json.Marshal(out.StructuredContent)
			ratio := float64(max(text, len(sc))) / float64(len(raw))
			t.Logf("%s: upstream %d B, text %d B, structured %d B: %.0f%%", tc.tool, len(raw), text, len(sc), 100*ratio)
			ceiling := maxListRatio
			if tc.ceiling > 0 {
				ceiling = tc.ceiling
			}
			if ratio > ceiling {
				t.Errorf("%s: result is %.0f%% of the upstream answer, budget %.0f%%", tc.tool, 100*ratio, 100*ceiling)
			}
		})
	}
}
