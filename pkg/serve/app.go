// Package serve is the one way every mcpfleet server runs: flags and env, the
// MCP server, tool filtering, logging to stderr with secrets
// scrubbed, stdio or streamable HTTP with auth, Origin and size checks, and a
// graceful shutdown. Each server's main.go is one call to Main.
package serve

import (
	"context"
	"flag"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// App describes one server.
type App struct {
	Name         string // binary and MCP server name
	Version      string
	DefaultPort  int    // --addr defaults to 127.0.0.1:DefaultPort
	Instructions string // sent to clients on initialize
	// Flags adds server-specific flags; their values are read in Register.
	Flags func(fs *flag.FlagSet)
	// Register adds tools (r.AddTools), resources and prompts (r.Server). It runs
	// once per process, after flags are parsed. ctx lives as long as the server.
	Register func(ctx context.Context, r *Registry) error
	// Commands are subcommands run instead of serving (e.g. "check-golden").
	Commands map[string]Command
	// Env lists the variables the server reads (--help, placeholder checks).
	Env []EnvVar
}

// EnvVar is one environment variable a server reads (env.Var).
type EnvVar = env.Var

// Command is a subcommand: it gets the arguments after its name and returns the exit code.
type Command func(ctx context.Context, args []string) int

// Registry is what Register sees.
type Registry struct {
	Server   *server.MCPServer
	Log      zerolog.Logger
	ReadOnly bool
	// Redis is the shared store from MCPFLEET_REDIS_URL, or nil: servers then
	// keep limits and caches in memory. With it, replicas share both.
	Redis *redis.Client
	// Clock is the time tools read (Options.Clock; the system clock in production).
	Clock clock.Clock
	// Tracing is the tracer provider (Options.Tracing; a no-op one when
	// tracing is off) for spans of the server's own beyond tool calls and
	// upstream requests, which are traced already.
	Tracing trace.TracerProvider
	state   *state // the embedded store: Store, LimitOptions, CacheOptions
	filter  toolFilter
	tools   []toolkit.Tool
	skipped []string
	aliases map[string]Alias // unlisted names of served tools (alias.go)
	// resourceCheck refuses malformed resource URIs (resourcecheck.go)
	resourceCheck func(uri string) error
	watched       bool                    // WatchResources was called (watch.go)
	scopes        map[string]string       // tool -> the OAuth scope it needs
	name          string                  // the server's name, the prefix of its scopes
	pages         map[string]http.Handler // HandlePage (pages.go)
	transport     string                  // Options.Transport
	addr          string                  // Options.Addr
}

// AddTools registers tools that pass the filters: read-only mode drops every tool
// whose readOnlyHint is false; --tools keeps only the named tools or toolsets;
// --exclude-tools drops them. A dropped tool is neither listed nor callable.
func (r *Registry) AddTools(ts ...toolkit.Tool) {
	for _, t := range ts {
		if !r.filter.keep(t, r.ReadOnly) {
			r.skipped = append(r.skipped, t.Name())
			continue
		}
		r.tools = append(r.tools, t)
		if r.scopes == nil {
			r.scopes = map[string]string{}
		}
		r.scopes[t.Name()] = toolScope(r.name, t)
		r.Server.AddTool(t.Tool, t.Handler)
	}
}

// Tools returns the registered tools (after filtering), in registration order.
func (r *Registry) Tools() []toolkit.Tool { return r.tools }
