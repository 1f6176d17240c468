package main

import (
	"net"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

var (
	loadArgs  = map[string]any{"symbol": "AAPL", "timeframe": "1h", "mode": "tail"}
	trainArgs = map[string]any{"symbols": []string{"AAPL"}, "timeframes": []string{"1h"}, "strategy_name": "neuro_mean_reversion"}
)

// TestBackendErrorShapes drives each error shape the backend sends through a
// tool and checks the envelope: code, retryable, and the backend's message.
func TestBackendErrorShapes(t *testing.T) {
	e := start(t, setup{})
	seeded := listOps(t, e.call(t, "list_operations", map[string]any{"status": "completed"})).Operations[0].OperationID
	cases := []struct {
		name      string
		faults    fake.Faults
		tool      string
		args      map[string]any
		code      envelope.Code
		retryable bool
		contains  []string
		detail    map[string]any
	}{
		{name: "404 operation not found", tool: "get_operation_status", args: map[string]any{"operation_id": "op_nope"},
			code: envelope.NotFound, contains: []string{"Operation not found: op_nope", "list_operations"}},
		{name: "400 cannot be cancelled", tool: "cancel_operation", args: map[string]any{"operation_id": seeded},
			code: envelope.Conflict, contains: []string{"already completed"}, detail: map[string]any{"status": "completed"}},
		{name: "404 cancel unknown", tool: "cancel_operation", args: map[string]any{"operation_id": "op_nope"}, code: envelope.NotFound},
		{name: "422 fastapi array", faults: fake.Faults{Status: 422, Validation: "fastapi"}, tool: "trigger_data_loading", args: loadArgs,
			code: envelope.InvalidArgument, contains: []string{"body.symbol", "Field required"}, detail: map[string]any{"field": "body.symbol"}},
		{name: "422 HEAD envelope", faults: fake.Faults{Status: 422}, tool: "start_training", args: trainArgs,
			code: envelope.InvalidArgument, contains: []string{"Request validation failed", "body -> symbol"}, detail: map[string]any{"upstream_code": "VALIDATION_ERROR"}},
		{name: "503 no workers (object detail)", faults: fake.Faults{NoWorkers: true}, tool: "start_training", args: trainArgs,
			code: envelope.UpstreamUnavailable, retryable: true, contains: []string{"No training workers available", "Workers auto-register after startup"},
			detail: map[string]any{"worker_type": "training", "registered_workers": float64(0)}},
		{name: "503 connection error envelope", faults: fake.Faults{Status: 503}, tool: "get_symbols",
			code: envelope.UpstreamUnavailable, retryable: true, contains: []string{"Failed to connect to IB Gateway"}, detail: map[string]any{"upstream_code": "CONNECTION_ERROR"}},
		{name: "500 envelope keeps the message", faults: fake.Faults{Status: 500}, tool: "list_operations",
			code: envelope.UpstreamError, retryable: true, contains: []string{"An unexpected error occurred"}},
		{name: "502 html page", faults: fake.Faults{Status: 502}, tool: "get_strategies", code: envelope.UpstreamUnavailable, retryable: true},
		{name: "malformed json", faults: fake.Faults{Malformed: true}, tool: "list_operations", code: envelope.UpstreamError, contains: []string{"not valid JSON"}},
		{name: "malformed json on a start", faults: fake.Faults{Malformed: true}, tool: "trigger_data_loading", args: loadArgs, code: envelope.UpstreamError},
		{name: "success false in a 200", faults: fake.Faults{SuccessFalse: true}, tool: "trigger_data_loading", args: loadArgs,
			code: envelope.UpstreamError, contains: []string{"data loading", "IB Gateway is not connected"}},
		{name: "success false on training", faults: fake.Faults{SuccessFalse: true}, tool: "start_training", args: trainArgs,
			code: envelope.UpstreamError, contains: []string{"training start", "strategy configuration could not be loaded"}},
		{name: "missing operation id", faults: fake.Faults{MissingID: true}, tool: "trigger_data_loading", args: loadArgs,
			code: envelope.UpstreamError, contains: []string{"data loading: the backend's answer has no operation_id", "Started tail download for AAPL 1h"}},
		{name: "missing task id", faults: fake.Faults{MissingID: true}, tool: "start_training", args: trainArgs,
			code: envelope.UpstreamError, contains: []string{"training start: the backend's answer has no task_id", "Neural network training started"}},
		{name: "unknown strategy", tool: "start_training", args: map[string]any{"symbols": []string{"AAPL"}, "timeframes": []string{"1h"}, "strategy_name": "nope"},
			code: envelope.NotFound, contains: []string{"Strategy file not found", "get_strategies"}},
		{name: "unknown model", tool: "predict", args: map[string]any{"model_name": "nope", "symbol": "AAPL"},
			code: envelope.NotFound, contains: []string{"Model 'nope' not found", "list_trained_models"}},
		{name: "model file missing", faults: fake.Faults{ModelFileMissing: true}, tool: "predict", args: map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1h"},
			code: envelope.Conflict, contains: []string{"could not load it"}, detail: map[string]any{"model_loaded": false}},
		{name: "performance of unknown training", tool: "get_model_performance", args: map[string]any{"operation_id": "op_nope"}, code: envelope.NotFound},
		{name: "results of unknown", tool: "get_operation_results", args: map[string]any{"operation_id": "op_nope"}, code: envelope.NotFound},
		{name: "schema rejects bad timeframe", tool: "get_market_data", args: map[string]any{"symbol": "AAPL", "timeframe": "7h"}, code: envelope.InvalidArgument},
		{name: "schema rejects docstring mode ib", tool: "trigger_data_loading", args: map[string]any{"symbol": "AAPL", "mode": "ib"}, code: envelope.InvalidArgument},
		{name: "schema rejects limit over 500", tool: "get_market_data", args: map[string]any{"symbol": "AAPL", "limit": 501}, code: envelope.InvalidArgument},
		{name: "schema rejects list limit over 100", tool: "list_operations", args: map[string]any{"limit": 101}, code: envelope.InvalidArgument},
		{name: "schema rejects empty symbols", tool: "start_training", args: map[string]any{"symbols": []string{}, "timeframes": []string{"1h"}, "strategy_name": "x"}, code: envelope.InvalidArgument},
		{name: "end before start", tool: "trigger_data_loading", args: map[string]any{"symbol": "AAPL", "start_date": "2024-02-01", "end_date": "2024-01-01"},
			code: envelope.InvalidArgument, detail: map[string]any{"field": "end_date"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			res := e.call(t, c.tool, c.args)
			if !res.IsError {
				t.Fatalf("want error, got %s", servetest.Text(res))
			}
			// Schema failures come from mcp-go's validator as plain isError text.
			if strings.HasPrefix(c.name, "schema") {
				return
			}
			checkErr(t, res, wantErr{code: c.code, retryable: c.retryable, contains: c.contains, detail: c.detail})
		})
	}
}

func TestHealthCheckNeverFails(t *testing.T) {
	e := start(t, setup{})
	for _, f := range []fake.Faults{{Status: 503}, {Status: 500}, {Malformed: true}, {Status: 502}} {
		e.fake.SetFaults(f)
		h := servetest.Decode[map[string]any](t, e.call(t, "health_check", nil))
		if h["status"] != "unhealthy" || h["reason"] == "" || h["code"] == "" {
			t.Fatalf("%+v: %v", f, h)
		}
	}
	// Nothing listening at all.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	down := start(t, setup{args: []string{"--api-url", "http://" + addr + "/api/v1"}})
	h := servetest.Decode[map[string]any](t, down.call(t, "health_check", nil))
	if h["status"] != "unhealthy" || h["code"] != string(envelope.UpstreamUnavailable) || !strings.Contains(h["reason"].(string), "KTRDR_API_URL") {
		t.Fatalf("%v", h)
	}
	b := servetest.ErrorBody(t, down.call(t, "list_operations", nil))
	if b.Code != envelope.UpstreamUnavailable || !b.Retryable {
		t.Fatalf("%+v", b)
	}
}

func TestTimeout(t *testing.T) {
	e := start(t, setup{args: []string{"--timeout", "1s"}})
	e.fake.SetFaults(fake.Faults{LatencyMS: 3000})
	b := servetest.ErrorBody(t, e.call(t, "get_symbols", nil))
	if b.Code != envelope.Timeout {
		t.Fatalf("%+v", b)
	}
	// A start that timed out may have started: outcome_unknown, not a blind retry.
	b = servetest.ErrorBody(t, e.call(t, "start_training", trainArgs))
	if b.Code != envelope.OutcomeUnknown || b.Retryable {
		t.Fatalf("%+v", b)
	}
}

func TestWrongBaseURL(t *testing.T) {
	e := start(t, setup{})
	bad := start(t, setup{args: []string{"--api-url", strings.TrimSuffix(e.base, fake.APIPrefix)}})
	_ = e
	b := servetest.ErrorBody(t, bad.call(t, "list_operations", nil))
	if b.Code != envelope.UpstreamError || !strings.Contains(b.Message, "KTRDR_API_URL") {
		t.Fatalf("%+v", b)
	}
}

// TestDataLoadRoutes: the probe finds the route a backend has once and
// remembers it; config pins it; an old shape on the new route still works.
func TestDataLoadRoutes(t *testing.T) {
	t.Run("auto probes once on a 3ba55e75 backend (405 on acquire)", func(t *testing.T) {
		e := start(t, setup{})
		e.fake.SetFaults(fake.Faults{Backend: fake.Backend3ba55e75})
		for i := 0; i < 3; i++ {
			r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs))
			if r.Route != client.RouteLoad || r.OperationID == "" {
				t.Fatalf("%+v", r)
			}
		}
		if n := e.fake.Count("POST", fake.APIPrefix+client.RouteAcquire); n != 1 {
			t.Fatalf("acquire probed %d times, want 1", n)
		}
		if n := e.fake.Count("POST", fake.APIPrefix+client.RouteLoad); n != 3 {
			t.Fatalf("load called %d times, want 3", n)
		}
	})
	t.Run("auto on HEAD uses acquire", func(t *testing.T) {
		e := start(t, setup{})
		r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs))
		if r.Route != client.RouteAcquire || !strings.Contains(r.Message, "Started tail download") || e.fake.Count("POST", fake.APIPrefix+client.RouteLoad) != 0 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("config pins load", func(t *testing.T) {
		e := start(t, setup{args: []string{"--data-load-route", "load"}})
		e.fake.SetFaults(fake.Faults{Backend: fake.Backend3ba55e75})
		r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs))
		if r.Route != client.RouteLoad || e.fake.Count("POST", fake.APIPrefix+client.RouteAcquire) != 0 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("config env pins acquire on a backend without it", func(t *testing.T) {
		t.Setenv("KTRDR_DATA_LOAD_ROUTE", "acquire")
		e := start(t, setup{})
		e.fake.SetFaults(fake.Faults{Backend: fake.Backend3ba55e75})
		b := servetest.ErrorBody(t, e.call(t, "trigger_data_loading", loadArgs))
		if b.Code != envelope.UpstreamError || !strings.Contains(b.Message, "KTRDR_DATA_LOAD_ROUTE") {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("config pins load on HEAD (bare 404)", func(t *testing.T) {
		e := start(t, setup{args: []string{"--data-load-route", "load"}})
		b := servetest.ErrorBody(t, e.call(t, "trigger_data_loading", loadArgs))
		if b.Code != envelope.UpstreamError || !strings.Contains(b.Message, "KTRDR_DATA_LOAD_ROUTE") {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("old envelope shape on the new route", func(t *testing.T) {
		e := start(t, setup{})
		e.fake.SetFaults(fake.Faults{OldShape: true})
		r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs))
		if r.Route != client.RouteAcquire || !strings.HasPrefix(r.OperationID, "op_data_load_") {
			t.Fatalf("%+v", r)
		}
		// and an old backend ignoring limit: the client trims
		md := servetest.Decode[client.MarketData](t, e.call(t, "get_market_data", map[string]any{"symbol": "AAPL", "limit": 7}))
		if md.Count != 7 || md.AvailableCount != 500 || !md.Limited {
			t.Fatalf("%+v", md)
		}
	})
}

func TestRetriesOnlySafeCalls(t *testing.T) {
	e := start(t, setup{retries: 2})
	e.fake.SetFaults(fake.Faults{Status: 500})
	servetest.ErrorBody(t, e.call(t, "list_operations", nil))
	if n := e.fake.Count("GET", fake.APIPrefix+"/operations"); n != 3 {
		t.Fatalf("GET tried %d times, want 3", n)
	}
	servetest.ErrorBody(t, e.call(t, "start_training", trainArgs))
	if n := e.fake.Count("POST", fake.APIPrefix+"/trainings/start"); n != 1 {
		t.Fatalf("POST tried %d times, want 1 (never repeated)", n)
	}
}
