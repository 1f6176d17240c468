package tools

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answer.
const maxListRatio = 0.30

// TestListResultRatio measures each list tool's result (the text block the
// model reads, and the structured content) against the raw bytes the fake
// backend sends for the same list, on the fake's seeded, realistic payloads.
func TestListResultRatio(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	defer stop()
	c, err := client.New(client.Config{APIURL: base})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error){}
	for _, tl := range All(c, Options{}) {
		byName[tl.Name()] = tl.Handler
	}
	cases := []struct {
		tool, path string
		args       map[string]any
		ceiling    float64 // 0: maxListRatio
	}{
		// returned_count (promised in the README) is a figure users page
		// with: it is not dropped to meet the ratio.
		{"list_operations", "/operations?limit=10&offset=0", nil, 0.32},
		// "complete": true (the result contract every list carries) is 16 B
		// of a 990 B answer; it is not dropped to meet the ratio.
		{"get_symbols", "/symbols", nil, 0.33},
		{"get_indicators", "/indicators/", nil, 0},
		{"get_strategies", "/strategies/", nil, 0},
		{"list_trained_models", "/models", nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			raw := rawGet(t, base+tc.path)
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = tc.tool, tc.args
			res, err := byName[tc.tool](context.Background(), req)
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", tc.tool, err, res)
			}
			text := len(res.Content[0].(mcp.TextContent).Text)
			// toolkit results carry their structured content as raw JSON.
			sc := []byte(res.RawStructuredContent)
			if res.StructuredContent != nil {
				sc, _ = json.Marshal(res.StructuredContent)
			}
			ratio := float64(max(text, len(sc))) / float64(raw)
			t.Logf("%s: upstream %d B, text %d B, structured %d B: %.0f%%", tc.tool, raw, text, len(sc), 100*ratio)
			if testing.Verbose() {
				t.Log(res.Content[0].(mcp.TextContent).Text)
			}
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

func rawGet(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return len(b)
}
