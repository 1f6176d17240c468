package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestDataSummaryCached: a repeated get_data_summary is answered from the
// cache (one backend request), and trigger_data_loading for that symbol and
// timeframe makes the next summary ask the backend again.
func TestDataSummaryCached(t *testing.T) {
	e := start(t, setup{})
	path := fake.APIPrefix + "/data/AAPL/1h"
	args := map[string]any{"symbol": "AAPL", "timeframe": "1h"}
	callOK(t, e, "get_data_summary", args)
	callOK(t, e, "get_data_summary", args)
	if n := e.fake.Count("GET", path); n != 1 {
		t.Fatalf("two summaries made %d backend requests, want 1", n)
	}
	callOK(t, e, "trigger_data_loading", args)
	callOK(t, e, "get_data_summary", args)
	if n := e.fake.Count("GET", path); n != 2 {
		t.Fatalf("summary after a load made %d backend requests in all, want 2", n)
	}
}

func callOK(t *testing.T, e *env, tool string, args map[string]any) {
	t.Helper()
	if res := e.call(t, tool, args); res.IsError {
		t.Fatalf("%s: %+v", tool, res.StructuredContent)
	}
}
