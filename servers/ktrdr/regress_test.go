package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// Regression tests against the real backend's behaviour, not our fake's: each drives
// a tool through MCP against the fake answering as one real backend version.

// trigger_data_loading with default settings works on both versions;
// mode local is refused on HEAD's acquire route with a message naming the
// cache-reading tools, and nothing is started.
func TestRegressDataLoadDefaults(t *testing.T) {
	for _, backend := range []string{fake.BackendHEAD, fake.Backend3ba55e75} {
		t.Run("default mode on "+backend, func(t *testing.T) {
			e := start(t, setup{noSeed: true})
			e.fake.SetFaults(fake.Faults{Backend: backend})
			r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", map[string]any{"symbol": "AAPL"}))
			if r.OperationID == "" {
				t.Fatalf("%+v", r)
			}
			op := servetest.Decode[client.Operation](t, e.call(t, "get_operation_status", map[string]any{"operation_id": r.OperationID}))
			if op.Metadata.Mode != client.DefaultLoadMode {
				t.Fatalf("mode sent %q, want %q", op.Metadata.Mode, client.DefaultLoadMode)
			}
		})
	}
	local := map[string]any{"symbol": "AAPL", "mode": "local"}
	t.Run("local while probing HEAD", func(t *testing.T) {
		e := start(t, setup{noSeed: true})
		b := servetest.ErrorBody(t, e.call(t, "trigger_data_loading", local))
		if b.Code != envelope.InvalidArgument || b.Details["field"] != "mode" || !strings.Contains(b.Message, "get_data_summary") {
			t.Fatalf("%+v", b)
		}
		if n := e.fake.Count("POST", fake.APIPrefix+client.RouteLoad); n != 0 {
			t.Fatalf("fell back to /data/load %d times on a route that exists", n)
		}
		// The route is now known: local is refused without another request.
		servetest.ErrorBody(t, e.call(t, "trigger_data_loading", local))
		if n := e.fake.Count("POST", fake.APIPrefix+client.RouteAcquire); n != 1 {
			t.Fatalf("acquire asked %d times, want 1", n)
		}
		if l := listOps(t, e.call(t, "list_operations", nil)); l.TotalCount != 0 {
			t.Fatalf("an operation was started: %+v", l)
		}
	})
	t.Run("local pinned to acquire is refused locally", func(t *testing.T) {
		e := start(t, setup{args: []string{"--data-load-route", "acquire"}})
		if b := servetest.ErrorBody(t, e.call(t, "trigger_data_loading", local)); b.Code != envelope.InvalidArgument {
			t.Fatalf("%+v", b)
		}
		if n := e.fake.Count("POST", fake.APIPrefix+client.RouteAcquire); n != 0 {
			t.Fatalf("sent %d times", n)
		}
	})
	t.Run("local on 3ba55e75 works", func(t *testing.T) {
		e := start(t, setup{})
		e.fake.SetFaults(fake.Faults{Backend: fake.Backend3ba55e75})
		if r := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", local)); r.Route != client.RouteLoad {
			t.Fatalf("%+v", r)
		}
	})
}

// predict loads the model on demand (once; again after a backend
// restart forgot it) and reports the backend's stub answer as a placeholder.
func TestRegressPredictLoadsOnDemand(t *testing.T) {
	e := start(t, setup{})
	args := map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1h", "test_date": "2024-06-28"}
	loadPath := fake.APIPrefix + "/models/neuro_mean_reversion/load"
	for i := 0; i < 2; i++ {
		p := servetest.Decode[client.Prediction](t, e.call(t, "predict", args))
		if p.Signal != "hold" || p.Confidence != 0 || !p.Placeholder || p.TestDate != "2024-06-28" || len(p.InputFeatures) != 0 || p.FuzzyOutputs["neutral"] != 1 {
			t.Fatalf("%+v", p)
		}
	}
	if n := e.fake.Count("POST", loadPath); n != 1 {
		t.Fatalf("loaded %d times, want 1", n)
	}
	e.fake.UnloadModels() // a backend restart
	servetest.Decode[client.Prediction](t, e.call(t, "predict", args))
	if n := e.fake.Count("POST", loadPath); n != 2 {
		t.Fatalf("loaded %d times after a restart, want 2", n)
	}
}

// performance of a training still running is a conflict (the backend's
// 404 "is not completed"), not not_found.
func TestRegressPerformanceOfRunningTraining(t *testing.T) {
	e := start(t, setup{})
	tr := servetest.Decode[client.TrainingStarted](t, e.call(t, "start_training", trainArgs))
	b := servetest.ErrorBody(t, e.call(t, "get_model_performance", map[string]any{"operation_id": tr.OperationID}))
	if b.Code != envelope.Conflict || b.Retryable || b.Details["status"] == nil || !strings.Contains(b.Message, "wait_for_operation") {
		t.Fatalf("%+v", b)
	}
}

// HEAD's operation types and statuses are accepted as filters; the
// 503 object detail and the cancel fields are covered in TestBackendErrorShapes
// and TestEveryTool.
func TestRegressHeadEnums(t *testing.T) {
	e := start(t, setup{})
	for _, args := range []map[string]any{{"operation_type": "agent_research"}, {"status": "resuming"}, {"operation_type": "agent_assessment", "status": "running"}} {
		if l := listOps(t, e.call(t, "list_operations", args)); len(l.Operations) != 0 {
			t.Fatalf("%v: %+v", args, l)
		}
	}
}
