package main

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// bareFloorAllocRatio is chartimg's own, tighter limit (issue 20): the whole
// construct_chart_config call, parse included, against a bare mcp-go server
// that parses nothing and answers the same bytes. The parse's ~18 allocations
// (90 before it was made cheap) keep it at ~1.12×.
const bareFloorAllocRatio = 1.17

// TestAllocsAtFloor: construct_chart_config allocates at most 1.3× a bare
// mcp-go server that does the same parse (nl.Builder over the same docs) and
// answers the very same bytes (issue 20): the difference is the spine. And at
// most bareFloorAllocRatio × one that does not parse at all: the parse must
// stay cheap.
func TestAllocsAtFloor(t *testing.T) {
	c := servetest.NewProduction(t, app(&tools.Config{NoLimiter: true}))
	b := nl.New(docsparse.Snapshot())
	args := map[string]any{"naturalLanguage": representativeText}
	ours, _ := servetest.GuardAllocsWith(t, c, "construct_chart_config", args,
		func(context.Context) error { _ = b.Build(nl.Request{Text: representativeText}); return nil })

	res := servetest.CallClient(t, c, "construct_chart_config", args)
	floor, err := client.NewInProcessClient(servetest.Floor("construct_chart_config", servetest.AnswerOf(t, res)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := floor.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer floor.Close()
	if err := servetest.Initialize(ctx, floor, ""); err != nil {
		t.Fatal(err)
	}
	bare := servetest.AllocsPerCall(t, floor, "construct_chart_config", args)
	t.Logf("construct_chart_config: %.0f allocs/call, bare same-bytes floor %.0f (%.2f×, limit %.2f×)", ours, bare, ours/bare, bareFloorAllocRatio)
	if ours > bareFloorAllocRatio*bare {
		t.Errorf("construct_chart_config allocates %.0f per call, %.2f× the bare floor's %.0f (limit %.2f×): the parse or the result shaping got dearer",
			ours, ours/bare, bare, bareFloorAllocRatio)
	}
}
