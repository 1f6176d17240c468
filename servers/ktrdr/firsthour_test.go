package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// What a new user meets in the first hour: each test drives one tool through
// MCP against the fake backend.

// list_operations says how many rows this page holds, as the README promises.
func TestListOperationsReturnedCount(t *testing.T) {
	e := start(t, setup{})
	got := servetest.Decode[struct {
		Rows          [][]any `json:"rows"`
		TotalCount    int     `json:"total_count"`
		ReturnedCount *int    `json:"returned_count"`
	}](t, e.call(t, "list_operations", map[string]any{"limit": 2}))
	if got.ReturnedCount == nil || *got.ReturnedCount != len(got.Rows) || len(got.Rows) != 2 || got.TotalCount <= 2 {
		t.Fatalf("returned_count %v for %d rows of %d", got.ReturnedCount, len(got.Rows), got.TotalCount)
	}
}

// A second cancel is a conflict whose message points to a tool that answers:
// the backend has no results for a cancelled operation (GET .../results
// answers 400 "Operation not finished (status: cancelled)").
func TestCancelTwicePointsToWhatWorks(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: time.Hour, Steps: 10}}})
	id := startTrainingOp(t, e)
	if res := e.call(t, "cancel_operation", map[string]any{"operation_id": id}); res.IsError {
		t.Fatal(servetest.Text(res))
	}
	b := servetest.ErrorBody(t, e.call(t, "cancel_operation", map[string]any{"operation_id": id}))
	if b.Code != envelope.Conflict || !strings.Contains(b.Message, "get_operation_status") || strings.Contains(b.Message, "get_operation_results") {
		t.Fatalf("%+v", b)
	}
	if res := e.call(t, "get_operation_status", map[string]any{"operation_id": id}); res.IsError {
		t.Fatalf("the tool the error names refuses: %s", servetest.Text(res))
	}
	if res := e.call(t, "get_operation_results", map[string]any{"operation_id": id}); !res.IsError {
		t.Fatal("the backend has results for a cancelled operation now: the message must point there again")
	}
}

// test_date must be a real date; nothing is sent for one that is not.
func TestPredictRefusesImpossibleTestDate(t *testing.T) {
	e := start(t, setup{})
	for _, d := range []string{"2024-13-45", "2024-02-30", "2024-06-28T25:00:00"} {
		b := servetest.ErrorBody(t, e.call(t, "predict", map[string]any{"model_id": "neuro_mean_reversion_v1", "test_date": d}))
		if b.Code != envelope.InvalidArgument || b.Details["field"] != "test_date" || !strings.Contains(b.Message, "YYYY-MM-DD") {
			t.Fatalf("%s: %+v", d, b)
		}
	}
	if n := e.fake.Count("POST", fake.APIPrefix+"/models/predict"); n != 0 {
		t.Fatalf("predict sent %d times", n)
	}
	if res := e.call(t, "predict", map[string]any{"model_id": "neuro_mean_reversion_v1", "test_date": "2024-02-29"}); res.IsError {
		t.Fatal(servetest.Text(res))
	}
}

// The backend reads any completed operation on /trainings/{id}/performance and
// answers a data load with empty metrics; the tool says what to use instead.
func TestModelPerformanceOfADataLoad(t *testing.T) {
	e := start(t, setup{})
	ops := listOps(t, e.call(t, "list_operations", map[string]any{"operation_type": "data_load", "status": "completed"}))
	if len(ops.Operations) == 0 {
		t.Fatal("no completed data load in the seed")
	}
	id := ops.Operations[0].OperationID
	b := servetest.ErrorBody(t, e.call(t, "get_model_performance", map[string]any{"operation_id": id}))
	if b.Code != envelope.InvalidArgument || b.Details["operation_type"] != "data_load" || !strings.Contains(b.Message, "get_operation_results") {
		t.Fatalf("%+v", b)
	}
}

type prediction struct {
	ModelID   string `json:"model_id"`
	Timeframe string `json:"timeframe"`
	Signal    string `json:"signal"`
}

// Four saved versions share the name neuro_mean_reversion (GET /models lists
// each): a name alone is refused with the candidates; model_id, or a symbol
// and timeframe matching one version, picks it.
func TestPredictDisambiguatesSharedModelNames(t *testing.T) {
	e := start(t, setup{})
	b := servetest.ErrorBody(t, e.call(t, "predict", map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL"}))
	if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "neuro_mean_reversion_v1 (AAPL 1h") || !strings.Contains(b.Message, "neuro_mean_reversion_v2 (AAPL 1d") || strings.Contains(b.Message, "_v3") {
		t.Fatalf("%+v", b)
	}
	cases := []struct {
		args map[string]any
		id   string
		tf   string
	}{
		{map[string]any{"model_id": "neuro_mean_reversion_v3"}, "neuro_mean_reversion_v3", "1d"},
		{map[string]any{"model_name": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1d"}, "neuro_mean_reversion_v2", "1d"},
		{map[string]any{"model_name": "neuro_mean_reversion", "symbol": "EURUSD"}, "neuro_mean_reversion_v4", "1h"},
	}
	for _, c := range cases {
		p := servetest.Decode[prediction](t, e.call(t, "predict", c.args))
		if p.ModelID != c.id || p.Timeframe != c.tf || p.Signal != "hold" {
			t.Fatalf("%v: %+v", c.args, p)
		}
	}
	if b := servetest.ErrorBody(t, e.call(t, "predict", map[string]any{"model_id": "nope_v9"})); b.Code != envelope.NotFound {
		t.Fatalf("%+v", b)
	}
}

// The default wait ends before the official TypeScript client's 60 s request
// timeout, and a wait that ends early says how far it got and to call again.
func TestWaitDefaultFitsClientTimeouts(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: time.Hour, Steps: 10}}})
	for _, tl := range e.conn.Tools(t) {
		if tl.Name != "wait_for_operation" {
			continue
		}
		var s struct {
			Properties map[string]struct {
				Default float64 `json:"default"`
			} `json:"properties"`
		}
		raw, _ := json.Marshal(tl.InputSchema)
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if d := s.Properties["timeout_seconds"].Default; d <= 0 || d > 45 {
			t.Fatalf("default wait %v s", d)
		}
	}
	id := startTrainingOp(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.conn.Client.CallTool(ctx, waitRequest(id, 1, mcp.ProgressToken("tok-w")))
	if err != nil {
		t.Fatal(err)
	}
	w := servetest.Decode[struct {
		Operation client.Operation `json:"operation"`
		TimedOut  bool             `json:"timed_out"`
		Next      string           `json:"next"`
	}](t, res)
	if !w.TimedOut || w.Operation.Status != "running" || !strings.Contains(w.Next, "call wait_for_operation again") || !strings.Contains(w.Next, id) {
		t.Fatalf("%+v", w)
	}
}
