package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/apps/apptest"
)

// TestInspectorListsAppResources: the MCP Inspector (a real TypeScript
// client, which does not declare MCP Apps) lists every view with the MCP Apps
// MIME type and reads a self-contained document, over stdio in both eras.
func TestInspectorListsAppResources(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	views := map[string][]string{
		"polymarket": {"ui://polymarket/market.html"},
		"shoonya":    {"ui://shoonya/candles.html", "ui://shoonya/portfolio.html"},
		"ktrdr":      {"ui://ktrdr/operation.html"},
		"ziwei":      {"ui://ziwei/chart.html"},
	}
	for server, uris := range views {
		for _, era := range []string{"legacy", "modern"} {
			t.Run(server+"/"+era, func(t *testing.T) {
				bin := filepath.Join(bins, server)
				out, _ := runInspector(t, era, bin, isolatedEnv(), "--method", "resources/list")
				res, _ := out["result"].(map[string]any)
				listed := map[string]string{}
				for _, r := range asList(res["resources"]) {
					m, _ := r.(map[string]any)
					uri, _ := m["uri"].(string)
					mime, _ := m["mimeType"].(string)
					listed[uri] = mime
				}
				for _, uri := range uris {
					if listed[uri] != "text/html;profile=mcp-app" {
						t.Errorf("%s listed with MIME %q (listed: %v)", uri, listed[uri], listed)
					}
				}
				read, _ := runInspector(t, era, bin, isolatedEnv(), "--method", "resources/read", "--uri", uris[0])
				rr, _ := read["result"].(map[string]any)
				contents := asList(rr["contents"])
				if len(contents) != 1 {
					t.Fatalf("resources/read %s: %v", uris[0], read)
				}
				c, _ := contents[0].(map[string]any)
				text, _ := c["text"].(string)
				if c["mimeType"] != "text/html;profile=mcp-app" || !strings.HasPrefix(strings.ToLower(text), "<!doctype html>") {
					t.Errorf("resources/read %s: mime %v, starts %q", uris[0], c["mimeType"], text[:min(len(text), 40)])
				}
				// The browser suite's rule: no URL but the few that nothing fetches.
				if err := apptest.SelfContained(text); err != nil {
					t.Errorf("%s: %v", uris[0], err)
				}
			})
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
