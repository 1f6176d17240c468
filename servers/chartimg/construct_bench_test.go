package main

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// representativeText is a typical construct_chart_config request.
const representativeText = "Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark"

func benchToolCall(b *testing.B, c *client.Client, tool string, args map[string]any) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkConstructProduction is the whole construct_chart_config call as
// production serves it (info logging to a discarding sink, no test
// middleware), through the in-process client.
func BenchmarkConstructProduction(b *testing.B) {
	c := servetest.NewProduction(b, app(&tools.Config{NoLimiter: true}))
	benchToolCall(b, c, "construct_chart_config", map[string]any{"naturalLanguage": representativeText})
}
