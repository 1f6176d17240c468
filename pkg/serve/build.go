package serve

import (
	"context"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/metrics"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/subscriptions"
	"github.com/mcpfleet/mcpfleet/pkg/telemetry"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// NewLogger is the zerolog logger every server uses: JSON lines to w (stderr in
// production), every line scrubbed of registered secrets and secret-named fields.
func NewLogger(w io.Writer, level string) (zerolog.Logger, error) {
	return NewLoggerFormat(w, level, "json")
}

// NewLoggerFormat is NewLogger with a format: "json" (one JSON object per
// line, for collectors), "console" (aligned, human-readable), or "auto"
// (console when w is a terminal, else JSON). Secrets are scrubbed in both.
func NewLoggerFormat(w io.Writer, level, format string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level must be debug, info, warn or error, not %q", level)
	}
	f, isFile := w.(*os.File)
	tty := isFile && isatty.IsTerminal(f.Fd())
	switch format {
	case "auto":
		format = "json"
		if tty {
			format = "console"
		}
	case "json", "console":
	default:
		return zerolog.Nop(), fmt.Errorf("--log-format must be auto, json or console, not %q", format)
	}
	// One line at a time: tool calls log concurrently, and a line longer than
	// the pipe's atomic write size would otherwise interleave with another.
	var out io.Writer = zerolog.SyncWriter(redact.Writer{W: w})
	if format == "console" {
		out = zerolog.SyncWriter(zerolog.ConsoleWriter{Out: redact.Writer{W: w}, TimeFormat: "15:04:05.000", NoColor: !tty})
	}
	return zerolog.New(out).Level(lvl).With().Timestamp().Logger(), nil
}

// Built is a configured server, ready for a transport or an in-process client.
type Built struct {
	Server   *server.MCPServer
	Registry *Registry
	Options  Options
	Log      zerolog.Logger
	Issued   issued.Store // tokens from `mcpfleet token issue`; nil unless MCPFLEET_AUTH_ISSUED on HTTP
}

// Build makes the MCP server for app with the given options: limits filled,
// hints and filters applied, the call logger installed, Register run.
func Build(ctx context.Context, app App, o Options, log zerolog.Logger) (*Built, error) {
	log = log.With().Str("server", app.Name).Logger()
	o.Limits = o.Limits.orDefaults() // Options built in code may leave limits unset
	var reg *Registry                // for the scope filter, set below
	if o.Tracing == nil {
		o.Tracing = telemetry.Off().Provider
	}
	var traced []server.ServerOption
	if !telemetry.IsNoop(o.Tracing) {
		traced = append(traced, server.WithResourceHandlerMiddleware(telemetry.ResourceSpans(o.Tracing, o.Transport)))
	}
	s := server.NewMCPServer(app.Name, resolveVersion(app.Version), append(traced,
		server.WithInstructions(app.Instructions),
		// No list ever changes after start (tools, resources and prompts are
		// added by Register), so no listChanged. Resources and prompts are
		// declared by mcp-go when a server adds its first one, so a server
		// without them answers resources/* and prompts/* with -32601;
		// resources.subscribe only where Registry.WatchResources turns it on.
		server.WithToolCapabilities(false),
		// No mcp-go input or output validation: the toolkit validates input
		// once with readable errors, and output conformance is proven in
		// tests (servetest checks every result against the output schema)
		// instead of costing every call.
		server.WithRecovery(),
		// Always a hook set, so Register can add hooks via r.Server.GetHooks().
		server.WithHooks(sessionGauge(app.Name)),
		server.WithResourceRecovery(),
		// An OAuth caller sees and calls only the tools its scopes cover.
		server.WithToolFilter(scopeFilter(&reg)),
		// No server.WithLogger: its lines (one per message and call) repeat
		// callLogger's and cost every call even when not written.
	)...)
	if !telemetry.IsNoop(o.Tracing) {
		// Outermost: the span covers the call as logged and measured.
		s.Use(telemetry.ToolSpans(o.Tracing, o.Transport))
	}
	s.Use(callLogger(log, app.Name))
	// A cancelled call's response is left out (MCP: no response to a
	// cancelled request); the transport's writer drops it.
	s.GetHooks().AddAfterCallTool(toolkit.CallEnded)
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	r := &Registry{Server: s, Log: log, ReadOnly: o.ReadOnly, filter: newToolFilter(o), name: app.Name, Clock: o.Clock, Tracing: o.Tracing, transport: o.Transport, addr: o.Addr,
		state: &state{ctx: context.WithoutCancel(ctx), mode: o.State, dir: o.StateDir, server: app.Name, log: log}}
	if r.state.mode == "" { // Options built by hand, not by ParseOptions
		r.state.mode = StateMemory
	}
	// The drift watch was made before the flags were read: name it after
	// the server (doctor looks for <server>.drift.json, whatever the
	// binary's file is called) and keep its signals beside the state file
	// --state-dir names too.
	drift.Default().Keep(app.Name, drift.DirFor(os.Getenv, r.state.mode, o.StateDir))
	reg = r
	if o.RedisURL != "" {
		rdb, err := ConnectRedis(ctx, o.RedisURL, log)
		if err != nil {
			return nil, err
		}
		r.Redis = rdb
		log.Info().Str("redis", rdb.Options().Addr).Msg("limits and caches shared through Redis")
	}
	if app.Register != nil {
		if err := app.Register(ctx, r); err != nil {
			r.state.close()
			return nil, err
		}
	}
	tokens, err := issuedStore(ctx, r, o)
	if err != nil {
		r.state.close()
		return nil, err
	}
	if !r.watched {
		subscriptions.RefuseAll(s)
	}
	if len(r.skipped) > 0 {
		log.Info().Strs("filtered_out", r.skipped).Bool("read_only", o.ReadOnly).Msg("tools not served")
	}
	return &Built{Server: s, Registry: r, Options: o, Log: log, Issued: tokens}, nil
}

// callLogger puts a per-call logger in ctx (zerolog.Ctx) and logs one info
// line per call: tool, user, outcome code (ok or the envelope's error code),
// duration in ms. Arguments are not logged: they may hold secrets.
func callLogger(log zerolog.Logger, name string) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			lc := log.With().Str("tool", req.Params.Name).Str("user", UserID(ctx))
			if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
				lc = lc.Str("trace_id", sc.TraceID().String()) // the tool span's (ToolSpans runs first)
			}
			l := lc.Logger()
			ctx = l.WithContext(ctx)
			start := time.Now()
			res, err := next(ctx, req)
			ev := l.Info()
			code := "ok"
			switch {
			case err != nil:
				ev, code = l.Error().Err(err), "protocol_error"
			case res != nil && res.IsError:
				code = "tool_error"
				// Only the closed set of codes is a label value: a body
				// built by hand with another code counts as tool_error.
				if b, ok := res.StructuredContent.(envelope.Body); ok && slices.Contains(envelope.Codes, b.Code) {
					code = string(b.Code)
				}
			}
			dur := time.Since(start)
			metrics.ToolCall(name, req.Params.Name, code, dur)
			ev.Str("code", code).Float64("duration_ms", float64(dur.Microseconds())/1000).Msg("tool call")
			return res, err
		}
	}
}
