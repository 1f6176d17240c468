package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestDataSummaryRange: get_data_summary's first date and count come from
// POST /data/range, its last bar from the newest bar; nothing cached is
// data_available false, and a refusal of the range is the tool's error.
func TestDataSummaryRange(t *testing.T) {
	e := start(t, setup{})
	all := servetest.Decode[client.MarketData](t, e.call(t, "get_market_data", map[string]any{"symbol": "MSFT", "timeframe": "1d", "limit": 500}))
	ok := []struct {
		name, symbol, tf string
		available        bool
		count            float64
		first, last      string
	}{
		{"cached daily bars", "MSFT", "1d", true, 250, all.Start, all.End},
		{"nothing cached", "NVDA", "1h", false, 0, "", ""},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			s := servetest.Decode[map[string]any](t, e.call(t, "get_data_summary", map[string]any{"symbol": c.symbol, "timeframe": c.tf}))
			first, _ := s["first_date"].(string)
			last, _ := s["last_date"].(string)
			if s["data_available"] != c.available || s["bar_count"] != c.count || first != c.first || last != c.last {
				t.Fatalf("%v, want first %q last %q", s, c.first, c.last)
			}
		})
	}
	if n := e.fake.Count("POST", fake.APIPrefix+"/data/range"); n != 2 {
		t.Fatalf("POST /data/range asked %d times, want 2", n)
	}
	bad := []struct {
		name   string
		faults fake.Faults
		symbol string
		want   wantErr
	}{
		{"range 500", fake.Faults{Status: 500, PathPrefix: "/data/range"}, "AAPL", wantErr{code: envelope.UpstreamError, retryable: true}},
		{"range 503", fake.Faults{Status: 503, PathPrefix: "/data/range"}, "EURUSD", wantErr{code: envelope.UpstreamUnavailable, retryable: true}},
		{"range malformed", fake.Faults{Malformed: true, PathPrefix: "/data/range"}, "AAPL", wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
		{"route gone (bare 404)", fake.Faults{Status: 404, PathPrefix: "/data/range"}, "AAPL", wantErr{code: envelope.UpstreamError, contains: []string{"KTRDR_API_URL"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "get_data_summary", map[string]any{"symbol": c.symbol, "timeframe": "1h"}), c.want)
		})
	}
}

// TestMarketDataIncludeExtended: include_extended goes to the backend with
// trading_hours_only, the only filter it widens; alone it is refused naming
// the fix.
func TestMarketDataIncludeExtended(t *testing.T) {
	e := start(t, setup{})
	path := fake.APIPrefix + "/data/AAPL/1h"
	callOK(t, e, "get_market_data", map[string]any{"symbol": "AAPL", "trading_hours_only": true, "include_extended": true})
	if q := e.fake.LastQuery("GET", path); !strings.Contains(q, "include_extended=true") || !strings.Contains(q, "trading_hours_only=true") {
		t.Fatalf("query %q", q)
	}
	callOK(t, e, "get_market_data", map[string]any{"symbol": "AAPL", "trading_hours_only": true})
	if q := e.fake.LastQuery("GET", path); strings.Contains(q, "include_extended") {
		t.Fatalf("query %q", q)
	}
	checkErr(t, e.call(t, "get_market_data", map[string]any{"symbol": "AAPL", "include_extended": true}),
		wantErr{code: envelope.InvalidArgument, contains: []string{"trading_hours_only"}, detail: map[string]any{"field": "include_extended"}})
}
