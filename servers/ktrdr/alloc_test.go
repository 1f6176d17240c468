package main

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// TestAllocsAtFloor: get_data_summary (the backend's cache summary, read
// from the fake over loopback HTTP) allocates at most 1.3× a bare mcp-go
// server that makes the same backend request with the same client and
// answers the very same bytes (issue 20): the difference is the spine.
func TestAllocsAtFloor(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	c := servetest.NewProduction(t, app(&tools.Config{Retries: -1}), "--api-url", base)
	cl, err := client.New(client.Config{APIURL: base, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	servetest.GuardAllocsWith(t, c, "get_data_summary", map[string]any{"symbol": "AAPL", "timeframe": "1h"},
		func(ctx context.Context) error {
			_, err := cl.MarketData(ctx, client.MarketQuery{Symbol: "AAPL", Timeframe: "1h", Limit: 1})
			return err
		})
}
