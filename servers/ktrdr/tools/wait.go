package tools

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// poller shares status polls between waiters: at most one GET
// /operations/{id} is in flight per operation however many callers wait on it;
// callers arriving while it runs get its answer.
type poller struct {
	c        *client.Client
	group    singleflight.Group
	min, max time.Duration
}

func newPoller(c *client.Client, min, max time.Duration) *poller {
	return &poller{c: c, min: min, max: max}
}

// pollTimeout bounds one shared poll; it is detached from any one waiter's
// context so a waiter that leaves does not fail the others.
const pollTimeout = 30 * time.Second

func (p *poller) poll(ctx context.Context, id string) (client.Operation, error) {
	ch := p.group.DoChan(id, func() (any, error) {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pollTimeout)
		defer cancel()
		return p.c.GetOperation(pctx, id)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return client.Operation{}, r.Err
		}
		return r.Val.(client.Operation), nil
	case <-ctx.Done():
		return client.Operation{}, ctx.Err()
	}
}

type waitIn struct {
	OperationID    string `json:"operation_id" mcp:"minLength=1;maxLength=200;pattern=^[A-Za-z0-9_.:-]+$"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" mcp:"min=1;max=600;default=45"`
}

// defaultWait stays under common client request timeouts: the official
// TypeScript SDK gives a request 60 s (DEFAULT_REQUEST_TIMEOUT_MSEC in
// @modelcontextprotocol/sdk shared/protocol.ts) and fails it client-side with
// -32001 "Request timed out" however well the server is doing. A longer job
// is waited on by calling again.
const defaultWait = 45 * time.Second

type waitOut struct {
	Operation     client.Operation `json:"operation"`
	Finished      bool             `json:"finished"`
	TimedOut      bool             `json:"timed_out" jsonschema:"still running: call again"`
	Polls         int              `json:"polls"`
	WaitedSeconds float64          `json:"waited_seconds"`
	Next          string           `json:"next,omitempty"`
}

func waitForOperation(p *poller) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "wait_for_operation", Title: "Wait for operation", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `Wait until an operation finishes or timeout_seconds passes (sends progress given a progressToken; cancelling stops only the wait); use instead of polling get_operation_status.
Returns the full status. A failed operation is a result, not a tool error.
Errors: not_found.
Related: get_operation_results, cancel_operation.`},
		func(ctx context.Context, in waitIn) (waitOut, error) {
			limit := defaultWait
			if in.TimeoutSeconds > 0 {
				limit = time.Duration(in.TimeoutSeconds) * time.Second
			}
			out, err := p.wait(ctx, in.OperationID, limit)
			if err == nil && out.TimedOut {
				out.Next = stillRunning(out.Operation)
			}
			return out, err
		})
}

// wait polls with backoff (min → max, ×1.5) until the operation is finished,
// the limit passes or ctx ends. Transient errors (retryable) keep it polling
// until the limit; others end it.
func (p *poller) wait(ctx context.Context, id string, limit time.Duration) (waitOut, error) {
	start := time.Now()
	deadline := start.Add(limit)
	notify := progressNotifier(ctx)
	interval := p.min
	var out waitOut
	var lastErr error
	for {
		op, err := p.poll(ctx, id)
		out.Polls++
		switch {
		case err != nil && ctx.Err() != nil:
			return out, envelope.New(envelope.Timeout, "the wait for %s was cancelled by the client; the operation keeps running", id).WithCause(ctx.Err())
		case err != nil:
			var e *envelope.Error
			if !errors.As(err, &e) || !e.Retryable {
				return out, err
			}
			lastErr = err
			zerolog.Ctx(ctx).Debug().Str("operation_id", id).Err(err).Msg("poll failed; retrying")
		default:
			lastErr = nil
			out.Operation = op
			notify(op)
			if client.Finished(op.Status) {
				out.Finished = true
				out.WaitedSeconds = seconds(time.Since(start))
				return out, nil
			}
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			if lastErr != nil && out.Operation.OperationID == "" {
				return out, lastErr
			}
			out.TimedOut = true
			out.WaitedSeconds = seconds(time.Since(start))
			return out, nil
		}
		t := time.NewTimer(min(interval, remaining))
		select {
		case <-ctx.Done():
			t.Stop()
			return out, envelope.New(envelope.Timeout, "the wait for %s was cancelled by the client; the operation keeps running", id).WithCause(ctx.Err())
		case <-t.C:
		}
		interval = min(p.max, interval*3/2)
	}
}

// stillRunning tells the model how far the operation got and to wait again.
func stillRunning(op client.Operation) string {
	step := ""
	if op.Progress.CurrentStep != "" {
		step = " (" + op.Progress.CurrentStep + ")"
	}
	return fmt.Sprintf("still %s at %g%%%s; call wait_for_operation again with operation_id %s to keep waiting", op.Status, op.Progress.Percentage.Float(), step, op.OperationID)
}

func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

// progressNotifier sends notifications/progress for the request's progress
// token, only when the percentage grows (MCP requires progress to increase).
// toolkit.Progress returns once the notification is written, so the last one
// precedes the result.
func progressNotifier(ctx context.Context) func(client.Operation) {
	if meta := toolkit.Request(ctx).Params.Meta; meta == nil || meta.ProgressToken == nil {
		return func(client.Operation) {}
	}
	last := -1.0
	return func(op client.Operation) {
		pct := op.Progress.Percentage.Float()
		if op.Status == "completed" {
			pct = 100
		}
		if pct <= last {
			return
		}
		last = pct
		msg := op.Progress.CurrentStep
		if msg == "" {
			msg = op.Status
		}
		toolkit.Progress(ctx, pct, 100, msg)
	}
}
