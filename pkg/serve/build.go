package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// NewLogger is the zerolog logger every server uses: JSON lines to w (stderr in
// production), every line scrubbed of registered secrets and secret-named fields.
func NewLogger(w io.Writer, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level must be debug, info, warn or error, not %q", level)
	}
	return zerolog.New(redact.Writer{W: w}).Level(lvl).With().Timestamp().Logger(), nil
}

// Built is a configured server, ready for a transport or an in-process client.
type Built struct {
	Server   *server.MCPServer
	Registry *Registry
	Options  Options
	Log      zerolog.Logger
}

// Build makes the MCP server for app with the given options: validation on,
// hints and filters applied, the call logger installed, Register run.
func Build(ctx context.Context, app App, o Options, log zerolog.Logger) (*Built, error) {
	log = log.With().Str("server", app.Name).Logger()
	s := server.NewMCPServer(app.Name, resolveVersion(app.Version),
		server.WithInstructions(app.Instructions),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		// Input validation is the toolkit's (one pass, readable per-field
		// errors); mcp-go's would run a second pass with Go struct dumps.
		server.WithOutputSchemaValidation(),
		server.WithRecovery(),
		// Always a hook set, so Register can add hooks via r.Server.GetHooks().
		server.WithHooks(&server.Hooks{}),
		server.WithResourceRecovery(),
		server.WithLogger(slog.New(zerolog.NewSlogHandler(log.Level(maxLevel(log.GetLevel(), zerolog.WarnLevel))))),
	)
	s.Use(callLogger(log))
	r := &Registry{Server: s, Log: log, ReadOnly: o.ReadOnly, filter: newToolFilter(o)}
	if o.RedisURL != "" {
		rdb, err := connectRedis(ctx, o.RedisURL, log)
		if err != nil {
			return nil, err
		}
		r.Redis = rdb
		log.Info().Str("redis", rdb.Options().Addr).Msg("limits and caches shared through Redis")
	}
	if app.Register != nil {
		if err := app.Register(ctx, r); err != nil {
			return nil, err
		}
	}
	if len(r.skipped) > 0 {
		log.Info().Strs("filtered_out", r.skipped).Bool("read_only", o.ReadOnly).Msg("tools not served")
	}
	return &Built{Server: s, Registry: r, Options: o, Log: log}, nil
}

func maxLevel(a, b zerolog.Level) zerolog.Level {
	if a > b {
		return a
	}
	return b
}

// callLogger puts a per-call logger in ctx (zerolog.Ctx) and logs each call's
// outcome and duration. Arguments are not logged: they may hold secrets.
func callLogger(log zerolog.Logger) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			l := log.With().Str("tool", req.Params.Name).Str("user", UserID(ctx)).Logger()
			ctx = l.WithContext(ctx)
			start := time.Now()
			res, err := next(ctx, req)
			ev := l.Debug()
			outcome := "ok"
			if err != nil {
				ev, outcome = l.Error().Err(err), "protocol_error"
			} else if res != nil && res.IsError {
				outcome = "tool_error"
			}
			ev.Str("outcome", outcome).Dur("took", time.Since(start)).Msg("tool call")
			return res, err
		}
	}
}
