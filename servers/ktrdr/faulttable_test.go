package main

import (
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// TestFaultTable runs every ktrdr read tool against a backend that fails,
// cuts or empties its answers, or answers with its documented error shapes:
// each answers an error or says its result is not whole; the strategy and
// model descriptions arrive marked as third-party text.
func TestFaultTable(t *testing.T) {
	f := fake.New(fake.Options{Scripts: slowScripts})
	base, stop := f.Start()
	t.Cleanup(stop)
	connect := func(t testing.TB, base string) *servetest.Conn {
		cfg := &tools.Config{Retries: -1, Options: tools.Options{PollMin: 20 * time.Millisecond, PollMax: 80 * time.Millisecond}}
		return servetest.New(t, app(cfg), "--api-url", base)
	}
	// one operation of each kind the read tools take, made once
	var training, backtest, research string
	ids := func(t testing.TB, c *servetest.Conn) {
		if training != "" {
			return
		}
		for _, o := range listOps(t.(*testing.T), c.Call(t, "list_operations", map[string]any{"operation_type": "training", "status": "completed", "limit": 1})).Operations {
			training = o.OperationID
		}
		bt := servetest.Decode[client.BacktestStarted](t, c.Call(t, "start_backtest", backtestArgs))
		if !f.Finish(bt.OperationID, "") {
			t.Fatalf("backtest %s did not start", bt.OperationID)
		}
		backtest = bt.OperationID
		research = servetest.Decode[client.AgentTriggered](t, c.Call(t, "trigger_research", map[string]any{"strategy": "neuro_mean_reversion"})).OperationID
		if training == "" || backtest == "" || research == "" {
			t.Fatalf("ids: %q %q %q", training, backtest, research)
		}
	}
	op := func(id *string) func(t testing.TB, c *servetest.Conn) map[string]any {
		return func(t testing.TB, c *servetest.Conn) map[string]any {
			ids(t, c)
			return map[string]any{"operation_id": *id}
		}
	}
	servetest.FaultTable{
		Upstream: base,
		Connect:  connect,
		Rows: []servetest.FaultRow{
			{Tool: "get_agent_status", Single: true},
			{Tool: "get_agent_budget", Single: true},
			{Tool: "list_child_operations", Prepare: op(&research)},
			{Tool: "get_backtest_results", Single: true, Prepare: op(&backtest)},
			{Tool: "get_market_data", Args: map[string]any{"symbol": "AAPL", "timeframe": "1h", "limit": 20}},
			{Tool: "get_data_summary", Single: true, Args: map[string]any{"symbol": "AAPL", "timeframe": "1h"}},
			{Tool: "get_symbols"},
			{Tool: "get_indicators"},
			{Tool: "list_operations"},
			{Tool: "get_operation_status", Single: true, Prepare: op(&training)},
			{Tool: "list_checkpoints"},
			{Tool: "get_operation_results", Single: true, Prepare: op(&training)},
			{Tool: "get_strategy", Single: true, Args: map[string]any{"strategy_name": "neuro_mean_reversion"}, ThirdParty: []string{"description"}},
			{Tool: "validate_strategy", Single: true, Args: map[string]any{"strategy_name": "neuro_mean_reversion"}},
			{Tool: "get_strategy_features", Args: map[string]any{"strategy_name": "neuro_mean_reversion"}},
			{Tool: "health_check", Single: true, FailedWhen: `"status":"unhealthy"`},
			{Tool: "get_strategies", Args: map[string]any{"detail": true}, ThirdParty: []string{"description"}},
			{Tool: "list_trained_models", Args: map[string]any{"detail": true}, ThirdParty: []string{"description"}},
			{Tool: "get_model_performance", Single: true, Prepare: op(&training)},
			{Tool: "predict", Single: true, Args: map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1h"}},
			{Tool: "wait_for_operation", Single: true, Prepare: func(t testing.TB, c *servetest.Conn) map[string]any {
				ids(t, c)
				return map[string]any{"operation_id": training, "timeout_seconds": 5}
			}},
		},
		Refusals: []servetest.Refusal{
			// FastAPI's HTTPException body (ktrdr/api/endpoints/*.py raise HTTPException(detail=…)).
			{Name: "500 detail", Status: 500, ContentType: "application/json", Body: `{"detail":"Internal server error"}`,
				Source: "kpiteira/ktrdr ktrdr/api/endpoints (HTTPException)"},
			// ApiResponse with success false (ktrdr/api/models/base.py).
			{Name: "200 success false", Status: 200, ContentType: "application/json",
				Body:   `{"success":false,"data":null,"error":{"code":"PROCESSING_ERROR","message":"Processing failed","details":{}}}`,
				Source: "kpiteira/ktrdr ktrdr/api/models/base.py ApiResponse/ErrorResponse"},
		},
	}.Run(t)
}
