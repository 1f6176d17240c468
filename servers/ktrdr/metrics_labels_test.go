package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestMetricLabelsBounded: ids, model names and symbols the model makes up
// never become metric label values (ktrdr's operations name the id they
// read, "get status of op_…", which was once a series per id).
func TestMetricLabelsBounded(t *testing.T) {
	e := start(t, setup{})
	servetest.BoundedLabels(t, func(u string) {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"get_operation_status", map[string]any{"operation_id": "op_" + u}},
			{"get_operation_results", map[string]any{"operation_id": "op_" + u}},
			{"get_model_performance", map[string]any{"operation_id": "op_" + u}},
			{"predict", map[string]any{"model_name": "model_" + u, "symbol": "SYM" + u}},
			{"get_market_data", map[string]any{"symbol": "SYM" + u}},
			{"get_data_summary", map[string]any{"symbol": "SYM" + u}},
			{"no_such_tool_" + u, map[string]any{}},
		} {
			_, _ = e.conn.CallCtx(t.Context(), c.tool, c.args)
		}
	})
}
