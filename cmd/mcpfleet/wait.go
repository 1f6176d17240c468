package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Default CLI deadlines for a call whose tool has no timeout argument.
const (
	defaultCallTimeout    = 2 * time.Minute
	defaultSessionTimeout = 5 * time.Minute
	// toolTimeoutGrace is what a call may take beyond the tool's own
	// timeout argument: the tool answers when its time is up, and the
	// answer still has to be written and read.
	toolTimeoutGrace = 30 * time.Second
)

// callDeadline is how long the CLI waits for one call: the --timeout floor,
// or longer when the tool takes a timeout argument of its own
// (wait_for_operation's timeout_seconds): as long as that argument asks
// (else its schema default, else its maximum) plus a grace. A tool that is
// told to wait 180 s is never cut at a CLI limit below that.
func callDeadline(floor time.Duration, tool *mcp.Tool, args map[string]any) time.Duration {
	if tool == nil {
		return floor
	}
	d, ok := toolTimeout(tool, args)
	if !ok {
		return floor
	}
	return max(floor, d+toolTimeoutGrace)
}

// toolTimeout reads the timeout a call gives its tool: the argument named
// timeout, timeout_seconds/timeoutSeconds/timeout_s (seconds) or
// timeout_ms/timeoutMs (milliseconds) in the tool's input schema, from the
// call's arguments, else the schema's default, else its maximum.
func toolTimeout(tool *mcp.Tool, args map[string]any) (time.Duration, bool) {
	var schema struct {
		Properties map[string]struct {
			Default any `json:"default"`
			Maximum any `json:"maximum"`
		} `json:"properties"`
	}
	raw := tool.RawInputSchema
	if raw == nil {
		raw, _ = json.Marshal(tool.InputSchema)
	}
	if json.Unmarshal(raw, &schema) != nil {
		return 0, false
	}
	for name, p := range schema.Properties {
		unit, ok := timeoutUnit(name)
		if !ok {
			continue
		}
		for _, v := range []any{args[name], p.Default, p.Maximum} {
			if n, ok := number(v); ok && n > 0 {
				return time.Duration(n * float64(unit)), true
			}
		}
	}
	return 0, false
}

// timeoutUnit is the unit of a timeout argument, by its name.
func timeoutUnit(name string) (time.Duration, bool) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "")) {
	case "timeout", "timeoutseconds", "timeouts", "timeoutsec", "waitseconds":
		return time.Second, true
	case "timeoutms", "timeoutmillis", "timeoutmilliseconds":
		return time.Millisecond, true
	}
	return 0, false
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// findTool is the tool named name among the session's tools, or nil.
func (s *session) findTool(ctx context.Context, name string) *mcp.Tool {
	ts, err := s.listTools(ctx)
	if err != nil {
		return nil
	}
	for i := range ts {
		if ts[i].Name == name {
			return &ts[i]
		}
	}
	return nil
}

// errInterrupted is a call cancelled by Ctrl-C.
var errInterrupted = errors.New("interrupted")

// interruptible is ctx cancelled by Ctrl-C (SIGINT) too, with errInterrupted
// as its cause. Cancelling the call's context makes the MCP client send
// notifications/cancelled for it; the server runs in a process group of its
// own (procattr_*.go), so the terminal's SIGINT does not reach it and it
// keeps serving the session.
func interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			cancel(errInterrupted)
		case <-done:
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel(nil)
	}
}

// wasInterrupted reports whether ctx ended by Ctrl-C.
func wasInterrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}
