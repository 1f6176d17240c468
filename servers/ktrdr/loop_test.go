package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// progressLog records, in arrival order, each progress notification and each
// tool result a client received, so a test can tell that progress came before
// the result it belongs to. mcp-go's streamable HTTP client calls the
// notification handler on the stream's reader before it hands back the
// response read after it, so the order is the wire's.
type progressLog struct {
	mu     sync.Mutex
	events []string                    // "progress <token>" or "result <token>"
	values map[string][]float64        // progress values per token
	msgs   map[string][]string         // messages per token
	raw    map[string][]map[string]any // the notifications' params per token
}

func newProgressLog(c *mcpclient.Client) *progressLog {
	l := &progressLog{values: map[string][]float64{}, msgs: map[string][]string{}, raw: map[string][]map[string]any{}}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		tok := fmt.Sprint(n.Params.AdditionalFields["progressToken"])
		p, _ := n.Params.AdditionalFields["progress"].(float64)
		m, _ := n.Params.AdditionalFields["message"].(string)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.events = append(l.events, "progress "+tok)
		l.values[tok] = append(l.values[tok], p)
		l.msgs[tok] = append(l.msgs[tok], m)
		l.raw[tok] = append(l.raw[tok], n.Params.AdditionalFields)
	})
	return l
}

func (l *progressLog) result(tok string) {
	l.mu.Lock()
	l.events = append(l.events, "result "+tok)
	l.mu.Unlock()
}

// before reports how many progress notifications for tok arrived before its
// result, and whether any arrived after it.
func (l *progressLog) before(tok string) (n int, after bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	seenResult := false
	for _, ev := range l.events {
		switch ev {
		case "progress " + tok:
			if seenResult {
				after = true
			} else {
				n++
			}
		case "result " + tok:
			seenResult = true
		}
	}
	return n, after
}

// loopClient is one MCP client of the server in one protocol era.
type loopClient struct {
	c   *mcpclient.Client
	log *progressLog
}

func (lc loopClient) call(t *testing.T, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res := servetest.CallClient(t, lc.c, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", tool, args, servetest.Text(res))
	}
	return res
}

// wait calls wait_for_operation with a progress token and checks that
// progress notifications came before the result and none after it.
func (lc loopClient) wait(t *testing.T, id, tok string, timeout int) waitResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout+10)*time.Second)
	defer cancel()
	res, err := lc.c.CallTool(ctx, waitRequest(id, timeout, tok))
	lc.log.result(tok)
	if err != nil {
		t.Fatalf("wait %s: %v", id, err)
	}
	if res.IsError {
		t.Fatalf("wait %s: %s", id, servetest.Text(res))
	}
	time.Sleep(30 * time.Millisecond) // a late notification would show up here
	if n, after := lc.log.before(tok); n == 0 || after {
		t.Fatalf("wait %s: %d progress notifications before the result, some after: %v", tok, n, after)
	}
	return servetest.Decode[waitResult](t, res)
}

// TestResearchLoopBothEras runs the whole research loop a user runs through
// the tools — load data, train, cancel (the checkpoint is kept), resume,
// backtest, results — over streamable HTTP in both protocol eras
// (2025-11-25 with its session, 2026-07-28 without), with progress
// notifications before each operation's result.
func TestResearchLoopBothEras(t *testing.T) {
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			e := start(t, setup{scripts: map[string]fake.Script{
				"data_load":   {Duration: 400 * time.Millisecond, Steps: 5},
				"training":    {Duration: 4 * time.Second, Steps: 10},
				"backtesting": {Duration: 500 * time.Millisecond, Steps: 8},
			}})
			hc := e.conn.HTTPClient(t, version, nil)
			lc := loopClient{c: hc, log: newProgressLog(hc)}

			// 1. Load data.
			load := servetest.Decode[client.LoadStarted](t, lc.call(t, "trigger_data_loading", map[string]any{"symbol": "MSFT", "timeframe": "1h", "mode": "tail"}))
			w := lc.wait(t, load.OperationID, "load", 30)
			if !w.Finished || w.Operation.Status != "completed" {
				t.Fatalf("load: %+v", w)
			}
			sum := servetest.Decode[map[string]any](t, lc.call(t, "get_data_summary", map[string]any{"symbol": "MSFT", "timeframe": "1h"}))
			if !strings.Contains(fmt.Sprint(sum), "MSFT") {
				t.Fatalf("summary after the load: %v", sum)
			}

			// 2. Train from the strategy's own symbol and timeframe; wait a
			// second of it (progress, then a timed-out result).
			tr := servetest.Decode[client.TrainingStarted](t, lc.call(t, "start_training", map[string]any{"strategy_name": "neuro_mean_reversion"}))
			if len(tr.Symbols) != 1 || tr.Symbols[0] != "AAPL" || tr.Timeframes[0] != "1h" {
				t.Fatalf("training: %+v", tr)
			}
			w = lc.wait(t, tr.OperationID, "train", 1)
			if w.Finished || !w.TimedOut || w.Operation.Status != "running" {
				t.Fatalf("training should still run after 1 s: %+v", w)
			}

			// 3. Cancel: the checkpoint is kept and listed.
			cn := servetest.Decode[map[string]any](t, lc.call(t, "cancel_operation", map[string]any{"operation_id": tr.OperationID, "reason": "try another window"}))
			if cn["status"] != "cancelled" || !strings.Contains(fmt.Sprint(cn["kept"]), "checkpoint") {
				t.Fatalf("cancel: %v", cn)
			}
			stopped := servetest.Decode[client.Operation](t, lc.call(t, "get_operation_status", map[string]any{"operation_id": tr.OperationID}))
			if stopped.Status != "cancelled" || stopped.Progress.Percentage <= 0 || stopped.Progress.Percentage >= 100 {
				t.Fatalf("cancelled training: %+v", stopped.Progress)
			}
			cps := servetest.Decode[struct {
				Checkpoints []client.Checkpoint `json:"checkpoints"`
			}](t, lc.call(t, "list_checkpoints", nil))
			if len(cps.Checkpoints) != 1 || cps.Checkpoints[0].OperationID != tr.OperationID || cps.Checkpoints[0].CheckpointType != "cancellation" {
				t.Fatalf("checkpoints: %+v", cps)
			}

			// 4. Resume: same id, from the checkpoint; progress runs on from
			// where it stopped and the training completes.
			rs := servetest.Decode[client.Resumed](t, lc.call(t, "resume_operation", map[string]any{"operation_id": tr.OperationID}))
			if rs.OperationID != tr.OperationID || rs.Status != "resuming" || rs.ResumedFrom.CheckpointType != "cancellation" || rs.ResumedFrom.Epoch == nil {
				t.Fatalf("resume: %+v", rs)
			}
			w = lc.wait(t, tr.OperationID, "resume", 30)
			if !w.Finished || w.Operation.Status != "completed" {
				t.Fatalf("resumed training: %+v", w)
			}
			lc.log.mu.Lock()
			first := lc.log.values["resume"][0]
			lc.log.mu.Unlock()
			if first < float64(stopped.Progress.Percentage) {
				t.Fatalf("resumed progress starts at %v, below the %v it stopped at", first, stopped.Progress.Percentage)
			}
			cps = servetest.Decode[struct {
				Checkpoints []client.Checkpoint `json:"checkpoints"`
			}](t, lc.call(t, "list_checkpoints", nil))
			if len(cps.Checkpoints) != 0 {
				t.Fatalf("the checkpoint must go once the resumed training completes: %+v", cps)
			}

			// 5. Backtest the trained strategy, then its results.
			bt := servetest.Decode[client.BacktestStarted](t, lc.call(t, "start_backtest", backtestArgs))
			if bt.Symbol != "AAPL" || bt.Timeframe != "1h" {
				t.Fatalf("backtest: %+v", bt)
			}
			w = lc.wait(t, bt.OperationID, "backtest", 30)
			if !w.Finished || w.Operation.Status != "completed" {
				t.Fatalf("backtest: %+v", w)
			}
			r := servetest.Decode[map[string]any](t, lc.call(t, "get_backtest_results", map[string]any{"operation_id": bt.OperationID}))
			if r["status"] != "completed" || r["total_return_pct"] != 8.42 || r["final_capital"] != 108420.0 || r["total_trades"] != 37.0 {
				t.Fatalf("results: %v", r)
			}

			// Every wait's progress grew and ended at 100 for the finished ones.
			lc.log.mu.Lock()
			defer lc.log.mu.Unlock()
			for _, tok := range []string{"load", "train", "resume", "backtest"} {
				vs := lc.log.values[tok]
				for i := 1; i < len(vs); i++ {
					if vs[i] < vs[i-1] {
						t.Fatalf("%s progress went back: %v", tok, vs)
					}
				}
				if tok != "train" && vs[len(vs)-1] != 100 {
					t.Fatalf("%s progress must end at 100: %v", tok, vs)
				}
			}
		})
	}
}
