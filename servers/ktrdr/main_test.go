package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// env is one server under test, connected through MCP to its own fake backend.
type env struct {
	conn *servetest.Conn
	fake *fake.Server
	base string
}

type setup struct {
	scripts map[string]fake.Script
	retries int
	args    []string
	noSeed  bool
}

func start(t *testing.T, s setup) *env {
	t.Helper()
	if s.scripts == nil {
		s.scripts = map[string]fake.Script{
			"data_load": {Duration: 300 * time.Millisecond, Steps: 5},
			"training":  {Duration: 600 * time.Millisecond, Steps: 10},
		}
	}
	f := fake.New(fake.Options{Scripts: s.scripts, NoSeed: s.noSeed})
	base, stop := f.Start()
	t.Cleanup(stop)
	if s.retries == 0 {
		s.retries = -1 // no retries: error-mapping tests see the first answer
	}
	cfg := &tools.Config{Retries: s.retries, Options: tools.Options{PollMin: 20 * time.Millisecond, PollMax: 80 * time.Millisecond}}
	args := append([]string{"--api-url", base}, s.args...)
	return &env{conn: servetest.New(t, app(cfg), args...), fake: f, base: base}
}

func (e *env) call(t *testing.T, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return e.conn.Call(t, tool, args)
}

func TestToolsListedAndReadOnly(t *testing.T) {
	e := start(t, setup{})
	if n := len(e.conn.Tools(t)); n != tools.ToolCount {
		t.Fatalf("%d tools listed, want %d", n, tools.ToolCount)
	}
	ro := start(t, setup{args: []string{"--read-only"}})
	names := map[string]bool{}
	for _, tl := range ro.conn.Tools(t) {
		names[tl.Name] = true
	}
	for _, w := range tools.Writers {
		if names[w] {
			t.Fatalf("read-only mode lists %s: %v", w, names)
		}
	}
	if len(names) != tools.ToolCount-len(tools.Writers) || !names["predict"] {
		t.Fatalf("read-only tools: %v", names)
	}
	servetest.Lint(t, ro.conn.Built.Registry.Tools())
}

// TestEveryTool calls each tool once on the happy path against the fake.
func TestEveryTool(t *testing.T) {
	e := start(t, setup{})
	// A finished training from the fake's seed, for the id-taking tools.
	list := listOps(t, e.call(t, "list_operations", map[string]any{"operation_type": "training", "status": "completed"}))
	if len(list.Operations) != 4 || list.TotalCount != 4 {
		t.Fatalf("seeded trainings: %+v", list)
	}
	trainID := list.Operations[0].OperationID

	cases := []struct {
		tool  string
		args  map[string]any
		check func(t *testing.T, res *mcp.CallToolResult)
	}{
		{"list_operations", map[string]any{}, func(t *testing.T, res *mcp.CallToolResult) {
			l := listOps(t, res)
			if len(l.Operations) != 10 || l.TotalCount != 10 || l.ActiveCount != 0 || !strings.HasPrefix(l.Operations[0].OperationID, "op_data_load_") || l.Operations[0].Status != "cancelled" || l.Operations[0].Symbol != "EURUSD" || l.Operations[0].Progress != 20 {
				t.Fatalf("%+v", l)
			}
			if strings.Join(l.Cols, ",") != "operation_id,status,symbol,progress" {
				t.Fatalf("brief columns: %v", l.Cols)
			}
		}},
		{"list_operations", map[string]any{"detail": true}, func(t *testing.T, res *mcp.CallToolResult) {
			l := listOps(t, res)
			if len(l.Operations) != 10 || l.Operations[0].CreatedAt == "" || l.Operations[0].OperationType != "data_load" || l.Operations[1].CurrentStep == "" || l.Operations[1].DurationSeconds <= 0 {
				t.Fatalf("%+v", l)
			}
		}},
		{"list_operations", map[string]any{"limit": 1, "offset": 1}, func(t *testing.T, res *mcp.CallToolResult) {
			l := listOps(t, res)
			if len(l.Operations) != 1 || l.TotalCount != 10 || l.Operations[0].Status != "failed" || l.Operations[0].Progress != 40 {
				t.Fatalf("%+v", l)
			}
		}},
		{"list_operations", map[string]any{"active_only": true}, func(t *testing.T, res *mcp.CallToolResult) {
			l := listOps(t, res)
			if len(l.Operations) != 0 || l.Operations == nil {
				t.Fatalf("empty must be an empty list: %+v", l)
			}
		}},
		{"get_operation_status", map[string]any{"operation_id": trainID}, func(t *testing.T, res *mcp.CallToolResult) {
			op := servetest.Decode[client.Operation](t, res)
			if op.Status != "completed" || op.Progress.Percentage != 100 || op.ResultSummary["model_path"] == nil {
				t.Fatalf("%+v", op)
			}
		}},
		{"get_operation_results", map[string]any{"operation_id": trainID}, func(t *testing.T, res *mcp.CallToolResult) {
			r := servetest.Decode[client.Results](t, res)
			if r.Status != "completed" || r.OperationType != "training" || r.Results["test_metrics"] == nil {
				t.Fatalf("%+v", r)
			}
		}},
		{"get_model_performance", map[string]any{"operation_id": trainID}, func(t *testing.T, res *mcp.CallToolResult) {
			p := servetest.Decode[client.Performance](t, res)
			if p.Status != "completed" || p.TestMetrics["f1_score"] == nil {
				t.Fatalf("%+v", p)
			}
		}},
		{"get_market_data", map[string]any{"symbol": "AAPL", "timeframe": "1d", "limit": 5}, func(t *testing.T, res *mcp.CallToolResult) {
			md := servetest.Decode[client.MarketData](t, res)
			if md.Count != 5 || md.AvailableCount != 250 || !md.Limited || md.End != "2024-06-28T19:00:00" || md.Dates[0] >= md.Dates[4] {
				t.Fatalf("%+v", md)
			}
			for _, b := range md.OHLCV {
				if b[1] < b[0] || b[1] < b[3] || b[2] > b[0] || b[2] > b[3] {
					t.Fatalf("invalid bar %v", b)
				}
			}
		}},
		{"get_market_data", map[string]any{"symbol": "AAPL"}, func(t *testing.T, res *mcp.CallToolResult) {
			if md := servetest.Decode[client.MarketData](t, res); md.Count != 50 || md.Timeframe != "1h" {
				t.Fatalf("defaults: %+v", md)
			}
		}},
		{"get_market_data", map[string]any{"symbol": "NVDA", "timeframe": "1h"}, func(t *testing.T, res *mcp.CallToolResult) {
			if md := servetest.Decode[client.MarketData](t, res); md.Count != 0 || md.Limited {
				t.Fatalf("no cache must be empty: %+v", md)
			}
		}},
		{"get_market_data", map[string]any{"symbol": "AAPL", "timeframe": "1d", "start_date": "2024-06-01", "end_date": "2024-06-10", "limit": 500}, func(t *testing.T, res *mcp.CallToolResult) {
			if md := servetest.Decode[client.MarketData](t, res); md.Count != 10 || md.Start != "2024-06-01T19:00:00" {
				t.Fatalf("range: %+v", md)
			}
		}},
		{"get_data_summary", map[string]any{"symbol": "MSFT", "timeframe": "1d"}, func(t *testing.T, res *mcp.CallToolResult) {
			s := servetest.Decode[map[string]any](t, res)
			if s["data_available"] != true || s["bar_count"] != 250.0 || s["last_date"] != "2024-06-28T19:00:00" {
				t.Fatalf("%v", s)
			}
		}},
		{"get_data_summary", map[string]any{"symbol": "NVDA"}, func(t *testing.T, res *mcp.CallToolResult) {
			if s := servetest.Decode[map[string]any](t, res); s["data_available"] != false || s["bar_count"] != 0.0 {
				t.Fatalf("%v", s)
			}
		}},
		{"get_symbols", nil, func(t *testing.T, res *mcp.CallToolResult) {
			s := servetest.Decode[struct {
				Symbols []client.Symbol `json:"symbols"`
			}](t, res)
			if len(s.Symbols) != 3 || s.Symbols[0].Symbol != "AAPL" || len(s.Symbols[0].AvailableTimeframes) == 0 || s.Symbols[0].TradingHours != nil {
				t.Fatalf("%+v", s)
			}
		}},
		{"get_indicators", map[string]any{"type": "trend"}, func(t *testing.T, res *mcp.CallToolResult) {
			s := servetest.Decode[struct {
				Indicators []struct {
					Type   string   `json:"type"`
					Params []string `json:"params"`
				} `json:"indicators"`
			}](t, res)
			if len(s.Indicators) != 2 || s.Indicators[0].Type != "trend" || len(s.Indicators[0].Params) == 0 {
				t.Fatalf("%+v", s)
			}
		}},
		{"get_indicators", map[string]any{"type": "trend", "detail": true}, func(t *testing.T, res *mcp.CallToolResult) {
			s := servetest.Decode[struct {
				Indicators []client.Indicator `json:"indicators"`
			}](t, res)
			if len(s.Indicators) != 2 || s.Indicators[0].Description == "" || len(s.Indicators[0].Parameters) == 0 || s.Indicators[0].Parameters[0].MaxValue == nil {
				t.Fatalf("%+v", s)
			}
		}},
		{"get_strategies", nil, func(t *testing.T, res *mcp.CallToolResult) {
			s := servetest.Decode[struct {
				Strategies []client.Strategy `json:"strategies"`
			}](t, res)
			if len(s.Strategies) != 2 || s.Strategies[0].TrainingStatus != "trained" {
				t.Fatalf("%+v", s)
			}
		}},
		{"list_trained_models", nil, func(t *testing.T, res *mcp.CallToolResult) {
			cols, s := listModels(t, res)
			if len(s) != 4 || s[0].ModelName != "neuro_mean_reversion" || s[0].Symbol != "AAPL" || s[0].TestAccuracy == nil || *s[0].TestAccuracy != 0.61 || s[0].ModelID != "" {
				t.Fatalf("%v %+v", cols, s)
			}
		}},
		{"predict", map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1h"}, func(t *testing.T, res *mcp.CallToolResult) {
			p := servetest.Decode[client.Prediction](t, res)
			if p.Signal != "hold" || !p.Placeholder || len(p.FuzzyOutputs) != 3 {
				t.Fatalf("%+v", p)
			}
		}},
		{"health_check", nil, func(t *testing.T, res *mcp.CallToolResult) {
			h := servetest.Decode[map[string]any](t, res)
			if h["status"] != "healthy" || h["version"] != fake.Version {
				t.Fatalf("%v", h)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) { c.check(t, e.call(t, c.tool, c.args)) })
	}
}

// TestLongOperationsEndToEnd starts a data load and a training, waits for
// them, then reads their results and the data and model they produced.
func TestLongOperationsEndToEnd(t *testing.T) {
	e := start(t, setup{noSeed: true})
	load := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", map[string]any{"symbol": "MSFT", "timeframe": "4h", "mode": "tail"}))
	if !strings.HasPrefix(load.OperationID, "op_data_load_") || load.Route != client.RouteAcquire || load.Status != "started" {
		t.Fatalf("%+v", load)
	}
	w := servetest.Decode[map[string]any](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": load.OperationID, "timeout_seconds": 10}))
	if w["finished"] != true || w["operation"].(map[string]any)["status"] != "completed" {
		t.Fatalf("%v", w)
	}
	md := servetest.Decode[client.MarketData](t, e.call(t, "get_market_data", map[string]any{"symbol": "MSFT", "timeframe": "4h", "limit": 3}))
	if md.Count != 3 {
		t.Fatalf("loaded data not visible: %+v", md)
	}
	tr := servetest.Decode[client.TrainingStarted](t, e.call(t, "start_training", map[string]any{"symbols": []string{"MSFT"}, "timeframes": []string{"1d"}, "strategy_name": "trend_momentum"}))
	if !strings.HasPrefix(tr.OperationID, "op_training_") || tr.Status != "training_started" {
		t.Fatalf("%+v", tr)
	}
	// Before it finishes: results and performance are conflicts.
	for _, tool := range []string{"get_operation_results", "get_model_performance"} {
		if b := servetest.ErrorBody(t, e.call(t, tool, map[string]any{"operation_id": tr.OperationID})); b.Code != envelope.Conflict {
			t.Fatalf("%s while running: %+v", tool, b)
		}
	}
	w = servetest.Decode[map[string]any](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": tr.OperationID, "timeout_seconds": 10}))
	if w["finished"] != true {
		t.Fatalf("%v", w)
	}
	if p := servetest.Decode[client.Performance](t, e.call(t, "get_model_performance", map[string]any{"operation_id": tr.OperationID})); p.Status != "completed" {
		t.Fatalf("%+v", p)
	}
	_, models := listModels(t, e.call(t, "list_trained_models", map[string]any{"detail": true}))
	if len(models) != 5 || models[4].ModelID != "trend_momentum_v1" || models[4].CreatedAt == "" {
		t.Fatalf("new model not listed: %v", models)
	}
	// Cancel a running one, then cancel it again: conflict with details.status.
	tr2 := servetest.Decode[client.TrainingStarted](t, e.call(t, "start_training", map[string]any{"symbols": []string{"AAPL"}, "timeframes": []string{"1h"}, "strategy_name": "neuro_mean_reversion"}))
	c := servetest.Decode[client.Cancellation](t, e.call(t, "cancel_operation", map[string]any{"operation_id": tr2.OperationID, "reason": "wrong dates"}))
	if c.Status != "cancelled" || c.CancellationReason != "wrong dates" || c.RemoteCancelled == nil || *c.RemoteCancelled || c.TrainingSessionCancelled != nil {
		t.Fatalf("%+v", c)
	}
	b := servetest.ErrorBody(t, e.call(t, "cancel_operation", map[string]any{"operation_id": tr2.OperationID}))
	if b.Code != envelope.Conflict || b.Details["status"] != "cancelled" || !strings.Contains(b.Message, tr2.OperationID) {
		t.Fatalf("second cancel: %+v", b)
	}
	if st := servetest.Decode[client.Operation](t, e.call(t, "get_operation_status", map[string]any{"operation_id": tr2.OperationID})); st.Status != "cancelled" {
		t.Fatalf("%+v", st)
	}
}
