package main

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// TestAllocsAtFloor: construct_chart_config allocates at most 1.3× a bare
// mcp-go server that does the same parse (nl.Builder over the same docs) and
// answers the very same bytes (issue 20): the difference is the spine.
func TestAllocsAtFloor(t *testing.T) {
	const text = "Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark"
	c := servetest.NewProduction(t, app(&tools.Config{NoLimiter: true}))
	b := nl.New(docsparse.Snapshot())
	servetest.GuardAllocsWith(t, c, "construct_chart_config", map[string]any{"naturalLanguage": text},
		func(context.Context) error { _ = b.Build(nl.Request{Text: text}); return nil })
}
