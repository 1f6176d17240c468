package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

type waitResult struct {
	Operation     client.Operation `json:"operation"`
	Finished      bool             `json:"finished"`
	TimedOut      bool             `json:"timed_out"`
	Polls         int              `json:"polls"`
	WaitedSeconds float64          `json:"waited_seconds"`
}

func startTrainingOp(t *testing.T, e *env) string {
	t.Helper()
	return servetest.Decode[client.TrainingStarted](t, e.call(t, "start_training", trainArgs)).OperationID
}

func waitRequest(id string, timeout int, token mcp.ProgressToken) mcp.CallToolRequest {
	var req mcp.CallToolRequest
	req.Params.Name = "wait_for_operation"
	req.Params.Arguments = map[string]any{"operation_id": id, "timeout_seconds": timeout}
	if token != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	return req
}

// TestWaitSendsProgress: an MCP client that asks for progress receives
// notifications/progress with growing percentages, total 100 and the current
// step as message, and the wait ends with the completed operation.
func TestWaitSendsProgress(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: 800 * time.Millisecond, Steps: 10}}})
	var mu sync.Mutex
	var got []map[string]any
	e.conn.Client.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		got = append(got, n.Params.AdditionalFields)
	})
	id := startTrainingOp(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.conn.Client.CallTool(ctx, waitRequest(id, 30, "tok-1"))
	if err != nil {
		t.Fatal(err)
	}
	w := servetest.Decode[waitResult](t, res)
	if !w.Finished || w.TimedOut || w.Operation.Status != "completed" || w.Polls < 3 {
		t.Fatalf("%+v", w)
	}
	time.Sleep(50 * time.Millisecond) // notifications are delivered asynchronously
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 3 {
		t.Fatalf("%d progress notifications, want several: %v", len(got), got)
	}
	last := -1.0
	sawEpoch := false
	for _, n := range got {
		p, _ := n["progress"].(float64)
		if n["progressToken"] != "tok-1" || toFloat(n["total"]) != 100 || p <= last {
			t.Fatalf("bad notification sequence: %v", got)
		}
		last = p
		if m, _ := n["message"].(string); len(m) > 5 && m[:5] == "Epoch" {
			sawEpoch = true
		}
	}
	if last != 100 || !sawEpoch {
		t.Fatalf("want a final 100 and epoch messages: %v", got)
	}
}

// Without a progress token no notification is sent.
func TestWaitWithoutTokenIsQuiet(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: 200 * time.Millisecond, Steps: 2}}})
	var mu sync.Mutex
	n := 0
	e.conn.Client.OnNotification(func(x mcp.JSONRPCNotification) {
		if x.Method == "notifications/progress" {
			mu.Lock()
			n++
			mu.Unlock()
		}
	})
	id := startTrainingOp(t, e)
	w := servetest.Decode[waitResult](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": id}))
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !w.Finished || n != 0 {
		t.Fatalf("finished=%v notifications=%d", w.Finished, n)
	}
}

// TestWaitClientCancellation: cancelling the request ends the wait promptly
// and polling stops; the operation keeps running.
func TestWaitClientCancellation(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: time.Hour, Steps: 10}}})
	id := startTrainingOp(t, e)
	path := fake.APIPrefix + "/operations/" + id
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.conn.Client.CallTool(ctx, waitRequest(id, 600, "tok"))
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("the wait did not stop on cancellation")
	}
	time.Sleep(100 * time.Millisecond)
	before := e.fake.Count("GET", path)
	time.Sleep(400 * time.Millisecond)
	if after := e.fake.Count("GET", path); after != before || before == 0 {
		t.Fatalf("polling continued after cancel: %d → %d", before, after)
	}
	if st := e.fake.Status(id); st != "running" {
		t.Fatalf("operation must keep running, is %s", st)
	}
}

// TestWaitSharedPoll: many callers waiting on one operation cause at most one
// status request in flight at a time, and all of them see the end.
func TestWaitSharedPoll(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: 700 * time.Millisecond, Steps: 5}}})
	id := startTrainingOp(t, e)
	path := fake.APIPrefix + "/operations/" + id
	e.fake.SetFaults(fake.Faults{LatencyMS: 40, PathPrefix: "/operations/"})
	const waiters = 12
	var wg sync.WaitGroup
	results := make([]waitResult, waiters)
	for i := 0; i < waiters; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = servetest.Decode[waitResult](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": id, "timeout_seconds": 20}))
		}(i)
	}
	wg.Wait()
	for i, r := range results {
		if !r.Finished || r.Operation.Status != "completed" {
			t.Fatalf("waiter %d: %+v", i, r)
		}
	}
	if m := e.fake.MaxInFlight("GET", path); m != 1 {
		t.Fatalf("max %d status requests in flight, want 1", m)
	}
	total := 0
	for _, r := range results {
		total += r.Polls
	}
	if n := e.fake.Count("GET", path); n >= total {
		t.Fatalf("%d backend polls for %d waiter polls: not shared", n, total)
	}
}

func TestWaitTimeLimitAndFailure(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{
		"training":  {Duration: time.Hour, Steps: 10},
		"data_load": {Duration: 300 * time.Millisecond, Steps: 5, FailAt: 60, FailMessage: "IB pacing violation"},
	}})
	id := startTrainingOp(t, e)
	t0 := time.Now()
	w := servetest.Decode[waitResult](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": id, "timeout_seconds": 1}))
	if w.Finished || !w.TimedOut || w.Operation.Status != "running" || time.Since(t0) > 6*time.Second {
		t.Fatalf("time limit: %+v after %s", w, time.Since(t0))
	}
	load := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs))
	w = servetest.Decode[waitResult](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": load.OperationID}))
	if !w.Finished || w.Operation.Status != "failed" || w.Operation.ErrorMessage != "IB pacing violation" {
		t.Fatalf("failure is a result: %+v", w)
	}
	r := servetest.Decode[client.Results](t, e.call(t, "get_operation_results", map[string]any{"operation_id": load.OperationID}))
	if r.Status != "failed" || r.Results["error"] != "IB pacing violation" {
		t.Fatalf("%+v", r)
	}
	if b := servetest.ErrorBody(t, e.call(t, "wait_for_operation", map[string]any{"operation_id": "op_nope"})); b.Code != envelope.NotFound {
		t.Fatalf("%+v", b)
	}
	// An outage for the whole wait ends it with the outage, retryable.
	e.fake.SetFaults(fake.Faults{Status: 503})
	if b := servetest.ErrorBody(t, e.call(t, "wait_for_operation", map[string]any{"operation_id": id, "timeout_seconds": 1})); b.Code != envelope.UpstreamUnavailable || !b.Retryable {
		t.Fatalf("%+v", b)
	}
	// An outage in the middle of the wait is ridden out.
	go func() {
		time.Sleep(300 * time.Millisecond)
		e.fake.ClearFaults()
		e.fake.Finish(id, "")
	}()
	w = servetest.Decode[waitResult](t, e.call(t, "wait_for_operation", map[string]any{"operation_id": id, "timeout_seconds": 10}))
	if !w.Finished || w.Operation.Status != "completed" {
		t.Fatalf("after the outage: %+v", w)
	}
}

// toFloat reads a number whether it crossed JSON (float64) or not (in-process).
func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	}
	return -1
}
