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
)

// Behavioural tests of the research-loop tools (start_backtest,
// get_backtest_results, resume_operation, retry_operation, list_checkpoints,
// cancel_operation's force and what it keeps, start_training's strategy
// defaults) against the fake.

// researchScripts are short runs for every operation type the loop uses.
var researchScripts = map[string]fake.Script{
	"data_load":   {Duration: 300 * time.Millisecond, Steps: 5},
	"training":    {Duration: 600 * time.Millisecond, Steps: 10},
	"backtesting": {Duration: 400 * time.Millisecond, Steps: 8},
}

// slowScripts keep operations running while a test cancels or resumes them.
var slowScripts = map[string]fake.Script{
	"data_load":   {Duration: time.Hour, Steps: 5},
	"training":    {Duration: time.Hour, Steps: 10},
	"backtesting": {Duration: time.Hour, Steps: 8},
}

var backtestArgs = map[string]any{"strategy_name": "neuro_mean_reversion", "start_date": "2024-01-01", "end_date": "2024-06-30"}

// wantErr is one expected error envelope.
type wantErr struct {
	code      envelope.Code
	retryable bool
	contains  []string
	detail    map[string]any
}

// checkErr asserts res is an isError result in the envelope with w's code,
// retryable flag, message parts and details; a schema refusal (mcp-go's
// validator, before the handler) only has to be an error naming the field.
func checkErr(t *testing.T, res *mcp.CallToolResult, w wantErr) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want %s error, got %s", w.code, servetest.Text(res))
	}
	b := servetest.ErrorBody(t, res)
	if b.Code != w.code || b.Retryable != w.retryable {
		t.Fatalf("got %s retryable=%v, want %s retryable=%v: %s", b.Code, b.Retryable, w.code, w.retryable, b.Message)
	}
	for _, s := range w.contains {
		if !strings.Contains(b.Message, s) {
			t.Errorf("message %q lacks %q", b.Message, s)
		}
	}
	for k, v := range w.detail {
		if b.Details[k] != v {
			t.Errorf("details[%s] = %v, want %v (%v)", k, b.Details[k], v, b.Details)
		}
	}
}

// finishOp ends a running fake operation now (errMsg fails it).
func finishOp(t *testing.T, e *env, id, errMsg string) {
	t.Helper()
	if !e.fake.Finish(id, errMsg) {
		t.Fatalf("finish %s: not active (%s)", id, e.fake.Status(id))
	}
}

func startBacktestOp(t *testing.T, e *env, args map[string]any) client.BacktestStarted {
	t.Helper()
	res := e.call(t, "start_backtest", args)
	if res.IsError {
		t.Fatalf("start_backtest: %s", servetest.Text(res))
	}
	return servetest.Decode[client.BacktestStarted](t, res)
}

func merge(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestStartBacktest(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	ok := []struct {
		name          string
		args          map[string]any
		symbol, tf    string
		capital       float64
		wantOperation string
	}{
		{"symbol and timeframe from the strategy", backtestArgs, "AAPL", "1h", 100000, "backtesting"},
		{"explicit symbol and timeframe", merge(backtestArgs, "symbol", "MSFT", "timeframe", "1d"), "MSFT", "1d", 100000, "backtesting"},
		{"capital, commission, slippage passed", merge(backtestArgs, "initial_capital", 25000.0, "commission", 0.002, "slippage", 0.0), "AAPL", "1h", 25000, "backtesting"},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			b := startBacktestOp(t, e, c.args)
			if !strings.HasPrefix(b.OperationID, "op_backtesting_") || b.Status != "started" || b.Symbol != c.symbol || b.Timeframe != c.tf {
				t.Fatalf("%+v", b)
			}
			op := servetest.Decode[client.Operation](t, e.call(t, "get_operation_status", map[string]any{"operation_id": b.OperationID}))
			if op.OperationType != c.wantOperation || op.Metadata.Symbol != c.symbol || op.Metadata.Parameters["initial_capital"] != c.capital {
				t.Fatalf("the backend got %+v", op)
			}
		})
	}
	bad := []struct {
		name   string
		faults fake.Faults
		args   map[string]any
		want   wantErr
	}{
		{"end before start", fake.Faults{}, merge(backtestArgs, "end_date", "2023-12-31"),
			wantErr{code: envelope.InvalidArgument, contains: []string{"end_date"}, detail: map[string]any{"field": "end_date"}}},
		{"date not YYYY-MM-DD (schema)", fake.Faults{}, merge(backtestArgs, "start_date", "01/02/2024"),
			wantErr{code: envelope.InvalidArgument, contains: []string{"start_date"}}},
		{"missing end_date (schema)", fake.Faults{}, merge(backtestArgs, "end_date", nil),
			wantErr{code: envelope.InvalidArgument, contains: []string{"end_date"}}},
		{"capital zero (schema)", fake.Faults{}, merge(backtestArgs, "initial_capital", 0),
			wantErr{code: envelope.InvalidArgument, contains: []string{"initial_capital"}}},
		{"bad timeframe (schema)", fake.Faults{}, merge(backtestArgs, "timeframe", "7h"),
			wantErr{code: envelope.InvalidArgument, contains: []string{"timeframe"}}},
		{"unknown strategy without symbol: 400", fake.Faults{}, merge(backtestArgs, "strategy_name", "nope"),
			wantErr{code: envelope.InvalidArgument, contains: []string{"Symbol and timeframe must be provided", "get_strategies"}}},
		{"no backtest workers: 503", fake.Faults{NoWorkers: true}, backtestArgs,
			wantErr{code: envelope.UpstreamUnavailable, retryable: true, contains: []string{"No backtesting workers available"}, detail: map[string]any{"worker_type": "backtesting"}}},
		{"422 from another backend version", fake.Faults{Status: 422}, backtestArgs,
			wantErr{code: envelope.InvalidArgument, contains: []string{"symbol"}}},
		{"404 route", fake.Faults{Status: 404}, backtestArgs, wantErr{code: envelope.UpstreamError, contains: []string{"no route POST /backtests/start", "KTRDR_API_URL"}}},
		{"409", fake.Faults{Status: 409}, backtestArgs, wantErr{code: envelope.Conflict}},
		{"500 envelope", fake.Faults{Status: 500}, backtestArgs, wantErr{code: envelope.UpstreamError, retryable: true, contains: []string{"An unexpected error occurred"}}},
		// A proxy's 502 on a start may hide a started backtest: not retryable.
		{"502 proxy page", fake.Faults{Status: 502}, backtestArgs, wantErr{code: envelope.OutcomeUnknown, contains: []string{"check before repeating"}}},
		{"malformed body", fake.Faults{Malformed: true}, backtestArgs, wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			res := e.call(t, "start_backtest", c.args)
			if strings.Contains(c.name, "(schema)") {
				if !res.IsError || !strings.Contains(servetest.Text(res), c.want.contains[0]) {
					t.Fatalf("schema must refuse naming %s: %s", c.want.contains[0], servetest.Text(res))
				}
				return
			}
			checkErr(t, res, c.want)
		})
	}
}

// A start is never sent twice, even when retries are on and the answer is a
// retryable 5xx: each POST /backtests/start starts one backtest.
func TestStartBacktestNotRetried(t *testing.T) {
	e := start(t, setup{scripts: slowScripts, retries: 3})
	for _, f := range []fake.Faults{{Status: 500}, {Status: 503}, {Status: 502}, {Malformed: true}} {
		e.fake.ResetCounts()
		e.fake.SetFaults(f)
		res := e.call(t, "start_backtest", backtestArgs)
		e.fake.ClearFaults()
		if !res.IsError {
			t.Fatalf("%+v: want error", f)
		}
		if n := e.fake.Count("POST", fake.APIPrefix+"/backtests/start"); n != 1 {
			t.Fatalf("%+v: POST /backtests/start sent %d times, want 1", f, n)
		}
	}
}

func TestGetBacktestResults(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	done := startBacktestOp(t, e, merge(backtestArgs, "initial_capital", 50000.0)).OperationID
	finishOp(t, e, done, "")
	running := startBacktestOp(t, e, backtestArgs).OperationID
	cancelled := startBacktestOp(t, e, backtestArgs).OperationID
	if res := e.call(t, "cancel_operation", map[string]any{"operation_id": cancelled}); res.IsError {
		t.Fatal(servetest.Text(res))
	}
	failed := startBacktestOp(t, e, merge(backtestArgs, "strategy_name", "nope", "symbol", "AAPL", "timeframe", "1h")).OperationID
	finishOp(t, e, failed, "Strategy file not found: strategies/nope.yaml")
	training := listOps(t, e.call(t, "list_operations", map[string]any{"operation_type": "training", "status": "completed"})).Operations[0].OperationID

	t.Run("completed: headline figures in percent, final capital", func(t *testing.T) {
		r := servetest.Decode[map[string]any](t, e.call(t, "get_backtest_results", map[string]any{"operation_id": done}))
		// The fake's run: total_return 0.0842 of capital, max drawdown 0.061,
		// as PerformanceTracker's decimals (ktrdr/backtesting/performance.py).
		want := map[string]any{"status": "completed", "strategy": "neuro_mean_reversion", "symbol": "AAPL", "timeframe": "1h",
			"initial_capital": 50000.0, "final_capital": 54210.0, "total_return_pct": 8.42, "max_drawdown_pct": 6.1,
			"sharpe_ratio": 0.91, "total_trades": 37.0, "win_rate": 0.5676}
		for k, v := range want {
			if r[k] != v {
				t.Errorf("%s = %v, want %v", k, r[k], v)
			}
		}
		m, _ := r["metrics"].(map[string]any)
		if m["profit_factor"] != 1.42 || m["total_return_pct"] != 0.0842 {
			t.Errorf("metrics must be the backend's as sent: %v", m)
		}
	})
	t.Run("failed: the operation's error", func(t *testing.T) {
		r := servetest.Decode[map[string]any](t, e.call(t, "get_backtest_results", map[string]any{"operation_id": failed}))
		if r["status"] != "failed" || !strings.Contains(r["error"].(string), "Strategy file not found") {
			t.Fatalf("%v", r)
		}
	})
	bad := []struct {
		name   string
		faults fake.Faults
		id     string
		want   wantErr
	}{
		{"still running", fake.Faults{}, running, wantErr{code: envelope.Conflict, contains: []string{"wait_for_operation"}}},
		{"cancelled: resume it", fake.Faults{}, cancelled, wantErr{code: envelope.Conflict, contains: []string{"status: cancelled", "resume_operation"}}},
		{"unknown id", fake.Faults{}, "op_backtesting_nope", wantErr{code: envelope.NotFound, contains: []string{"Operation not found"}}},
		{"a training is not a backtest", fake.Faults{}, training,
			wantErr{code: envelope.InvalidArgument, contains: []string{"not a backtest", "get_operation_results"}, detail: map[string]any{"operation_type": "training"}}},
		{"500", fake.Faults{Status: 500}, done, wantErr{code: envelope.UpstreamError, retryable: true}},
		{"503", fake.Faults{Status: 503}, done, wantErr{code: envelope.UpstreamUnavailable, retryable: true}},
		{"malformed body", fake.Faults{Malformed: true}, done, wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "get_backtest_results", map[string]any{"operation_id": c.id}), c.want)
		})
	}
	res := e.call(t, "get_backtest_results", map[string]any{"operation_id": "op bad id"})
	if !res.IsError {
		t.Fatalf("schema must refuse an id with a space: %s", servetest.Text(res))
	}
}

func TestCancelKeepsAndForces(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	train := startTrainingOp(t, e)
	bt := startBacktestOp(t, e, backtestArgs).OperationID
	load := servetest.Decode[client.LoadStarted](t, e.call(t, "trigger_data_loading", loadArgs)).OperationID
	cases := []struct {
		name        string
		id          string
		args        map[string]any
		reason      string
		force       bool
		keptMention string
	}{
		{"training, forced with a reason", train, map[string]any{"force": true, "reason": "wrong window"}, "wrong window", true, "resume_operation"},
		{"backtest, plain", bt, map[string]any{}, "", false, "resume_operation"},
		{"data load keeps its bars", load, map[string]any{"reason": "enough"}, "enough", false, "cached"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "cancel_operation", merge(c.args, "operation_id", c.id))
			if res.IsError {
				t.Fatal(servetest.Text(res))
			}
			out := servetest.Decode[map[string]any](t, res)
			if out["status"] != "cancelled" || !strings.Contains(out["kept"].(string), c.keptMention) || strings.Contains(servetest.Text(res), "discard") {
				t.Fatalf("%v", out)
			}
			reason, force, ok := e.fake.Cancelled(c.id)
			if !ok || reason != c.reason || force != c.force {
				t.Fatalf("backend got reason=%q force=%v ok=%v", reason, force, ok)
			}
		})
	}
	t.Run("second cancel is a conflict naming resume", func(t *testing.T) {
		checkErr(t, e.call(t, "cancel_operation", map[string]any{"operation_id": train, "force": true}),
			wantErr{code: envelope.Conflict, contains: []string{"resume_operation"}, detail: map[string]any{"status": "cancelled"}})
	})
	t.Run("reason over 500 chars (schema)", func(t *testing.T) {
		if res := e.call(t, "cancel_operation", map[string]any{"operation_id": train, "reason": strings.Repeat("x", 501)}); !res.IsError {
			t.Fatal("schema must refuse")
		}
	})
	t.Run("force not a boolean (schema)", func(t *testing.T) {
		if res := e.call(t, "cancel_operation", map[string]any{"operation_id": train, "force": "yes"}); !res.IsError {
			t.Fatal("schema must refuse")
		}
	})
}

func TestResumeOperation(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	cancelled := startTrainingOp(t, e)
	time.Sleep(10 * time.Millisecond)
	if res := e.call(t, "cancel_operation", map[string]any{"operation_id": cancelled}); res.IsError {
		t.Fatal(servetest.Text(res))
	}
	running := startTrainingOp(t, e)
	seeded := listOps(t, e.call(t, "list_operations", map[string]any{"operation_type": "data_load", "status": "cancelled"})).Operations[0].OperationID
	completed := listOps(t, e.call(t, "list_operations", map[string]any{"operation_type": "training", "status": "completed"})).Operations[0].OperationID

	bad := []struct {
		name   string
		faults fake.Faults
		id     string
		want   wantErr
	}{
		// Before the success case: a 503 leaves the operation cancelled, resumable.
		{"no training worker: 503", fake.Faults{NoWorkers: true}, cancelled,
			wantErr{code: envelope.UpstreamUnavailable, retryable: true, contains: []string{"No training worker available to resume operation"}}},
		{"old backend has no route", fake.Faults{Backend: fake.Backend3ba55e75}, cancelled,
			wantErr{code: envelope.UpstreamError, contains: []string{"predates it", "start the training or backtest again"}}},
		{"running: 409", fake.Faults{}, running, wantErr{code: envelope.Conflict, contains: []string{"already running"}}},
		{"completed: 409", fake.Faults{}, completed, wantErr{code: envelope.Conflict, contains: []string{"already completed"}}},
		{"unknown: 404", fake.Faults{}, "op_training_nope", wantErr{code: envelope.NotFound, contains: []string{"Operation not found", "list_checkpoints"}}},
		{"cancelled data load has no checkpoint: 404", fake.Faults{}, seeded,
			wantErr{code: envelope.NotFound, contains: []string{"No checkpoint available", "list_checkpoints"}}},
		{"500", fake.Faults{Status: 500}, cancelled, wantErr{code: envelope.UpstreamError, retryable: true}},
		{"malformed body", fake.Faults{Malformed: true}, cancelled, wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "resume_operation", map[string]any{"operation_id": c.id}), c.want)
		})
	}
	if st := e.fake.Status(cancelled); st != fake.StatusCancelled {
		t.Fatalf("after the refusals the training must still be cancelled, is %s", st)
	}
	t.Run("cancelled training resumes from its checkpoint", func(t *testing.T) {
		r := servetest.Decode[client.Resumed](t, e.call(t, "resume_operation", map[string]any{"operation_id": cancelled}))
		if r.OperationID != cancelled || r.Status != "resuming" || r.ResumedFrom.CheckpointType != "cancellation" || r.ResumedFrom.Epoch == nil || r.ResumedFrom.CreatedAt == "" {
			t.Fatalf("%+v", r)
		}
		if st := e.fake.Status(cancelled); st != fake.StatusRunning {
			t.Fatalf("resumed operation is %s", st)
		}
		checkErr(t, e.call(t, "resume_operation", map[string]any{"operation_id": cancelled}),
			wantErr{code: envelope.Conflict, contains: []string{"already running"}})
	})
}

func TestRetryOperation(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	failed := listOps(t, e.call(t, "list_operations", map[string]any{"status": "failed"})).Operations[0].OperationID
	cancelled := listOps(t, e.call(t, "list_operations", map[string]any{"status": "cancelled"})).Operations[0].OperationID
	completed := listOps(t, e.call(t, "list_operations", map[string]any{"status": "completed"})).Operations[0].OperationID
	t.Run("failed operation registered again", func(t *testing.T) {
		r := servetest.Decode[map[string]any](t, e.call(t, "retry_operation", map[string]any{"operation_id": failed}))
		id, _ := r["operation_id"].(string)
		if !strings.HasPrefix(id, "op_retry_data_load_") || id == failed || r["status"] != "pending" || r["retry_of"] != failed {
			t.Fatalf("%v", r)
		}
		if st := e.fake.Status(id); st != fake.StatusPending {
			t.Fatalf("the new operation is %s", st)
		}
	})
	bad := []struct {
		name   string
		faults fake.Faults
		id     string
		want   wantErr
	}{
		{"cancelled: resume instead", fake.Faults{}, cancelled,
			wantErr{code: envelope.Conflict, contains: []string{"only a failed operation can be retried", "resume_operation"}, detail: map[string]any{"status": "cancelled"}}},
		{"completed", fake.Faults{}, completed, wantErr{code: envelope.Conflict, detail: map[string]any{"status": "completed"}}},
		{"unknown", fake.Faults{}, "op_nope", wantErr{code: envelope.NotFound, contains: []string{"Operation not found", "list_operations"}}},
		{"500", fake.Faults{Status: 500}, failed, wantErr{code: envelope.UpstreamError, retryable: true}},
		{"503", fake.Faults{Status: 503}, failed, wantErr{code: envelope.UpstreamUnavailable, retryable: true}},
		{"malformed body", fake.Faults{Malformed: true}, failed, wantErr{code: envelope.UpstreamError}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "retry_operation", map[string]any{"operation_id": c.id}), c.want)
		})
	}
}

func TestListCheckpoints(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	type cps struct {
		Checkpoints []client.Checkpoint `json:"checkpoints"`
		TotalCount  int                 `json:"total_count"`
		Complete    bool                `json:"complete"`
		Missing     string              `json:"missing"`
	}
	empty := servetest.Decode[map[string]any](t, e.call(t, "list_checkpoints", nil))
	if l, _ := empty["checkpoints"].([]any); l == nil || len(l) != 0 || empty["total_count"] != 0.0 {
		t.Fatalf("no checkpoints must be an empty list: %v", empty)
	}
	if !strings.Contains(servetest.ResultJSON(e.call(t, "list_checkpoints", nil)), "no checkpoints") {
		t.Fatalf("empty coverage must say why: %v", empty)
	}
	train := startTrainingOp(t, e)
	e.call(t, "cancel_operation", map[string]any{"operation_id": train})
	bt := startBacktestOp(t, e, backtestArgs).OperationID
	e.call(t, "cancel_operation", map[string]any{"operation_id": bt})
	got := servetest.Decode[cps](t, e.call(t, "list_checkpoints", nil))
	if got.TotalCount != 2 || len(got.Checkpoints) != 2 || got.Checkpoints[0].OperationID != bt || got.Checkpoints[1].OperationID != train ||
		got.Checkpoints[1].CheckpointType != "cancellation" || got.Checkpoints[1].StateSummary["epoch"] == nil {
		t.Fatalf("want the backtest then the training, newest first: %+v", got)
	}
	bad := []struct {
		name   string
		faults fake.Faults
		want   wantErr
	}{
		{"old backend has no route", fake.Faults{Backend: fake.Backend3ba55e75}, wantErr{code: envelope.UpstreamError, contains: []string{"predates it", "keeps no checkpoints"}}},
		{"500", fake.Faults{Status: 500}, wantErr{code: envelope.UpstreamError, retryable: true}},
		{"503", fake.Faults{Status: 503}, wantErr{code: envelope.UpstreamUnavailable, retryable: true}},
		{"malformed body", fake.Faults{Malformed: true}, wantErr{code: envelope.UpstreamError}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "list_checkpoints", nil), c.want)
		})
	}
}

func TestStartTrainingFromStrategy(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	cases := []struct {
		name       string
		args       map[string]any
		symbol, tf string
		analytics  bool
	}{
		{"symbols and timeframes from the strategy", map[string]any{"strategy_name": "trend_momentum"}, "MSFT", "1d", false},
		{"only timeframes given", map[string]any{"strategy_name": "neuro_mean_reversion", "timeframes": []string{"1d"}}, "AAPL", "1d", false},
		{"detailed analytics sent", map[string]any{"strategy_name": "neuro_mean_reversion", "detailed_analytics": true}, "AAPL", "1h", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "start_training", c.args)
			if res.IsError {
				t.Fatal(servetest.Text(res))
			}
			st := servetest.Decode[client.TrainingStarted](t, res)
			if len(st.Symbols) != 1 || st.Symbols[0] != c.symbol || len(st.Timeframes) != 1 || st.Timeframes[0] != c.tf {
				t.Fatalf("%+v", st)
			}
			op := servetest.Decode[client.Operation](t, e.call(t, "get_operation_status", map[string]any{"operation_id": st.OperationID}))
			if op.Metadata.Symbol != c.symbol || op.Metadata.Parameters["detailed_analytics"] != c.analytics {
				t.Fatalf("the backend got %+v", op.Metadata)
			}
		})
	}
	t.Run("unknown strategy names get_strategies", func(t *testing.T) {
		checkErr(t, e.call(t, "start_training", map[string]any{"strategy_name": "nope"}),
			wantErr{code: envelope.NotFound, contains: []string{"nope", "get_strategies"}})
	})
	t.Run("strategies list down", func(t *testing.T) {
		e.fake.SetFaults(fake.Faults{Status: 503})
		defer e.fake.ClearFaults()
		checkErr(t, e.call(t, "start_training", map[string]any{"strategy_name": "trend_momentum"}),
			wantErr{code: envelope.UpstreamUnavailable, retryable: true})
	})
}
