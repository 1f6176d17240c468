package serve

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/telemetry"
)

// SpineEnv is every variable the spine reads without a flag of its own
// (the flags name theirs in brackets), declared once: --help prints it for
// every server, and servetest.EnvInHelp proves each read variable is listed.
func SpineEnv() []env.Var {
	return append([]env.Var{
		{Name: "MCPFLEET_AUTH_TOKENS", Help: "user=token,... bearer tokens for HTTP", Secret: true},
		{Name: "MCPFLEET_AUTH_ISSUED", Help: "1: accept tokens issued with `mcpfleet token issue` (kept in the state file or Redis; docs/deploy.md)"},
		{Name: "MCPFLEET_OAUTH_ISSUER", Help: "with MCPFLEET_PUBLIC_URL: accept OAuth access tokens from this issuer (docs/deploy.md)"},
		{Name: "MCPFLEET_PUBLIC_URL", Help: "this server's URL as clients reach it, e.g. https://mcp.example.com/mcp (OAuth)"},
		{Name: "MCPFLEET_OAUTH_AUDIENCE", Help: "the audience access tokens must carry, when it is not MCPFLEET_PUBLIC_URL (OAuth)"},
		{Name: "MCPFLEET_OAUTH_CLIENT_ID", Help: "client id for token introspection of opaque tokens (OAuth)"},
		{Name: "MCPFLEET_OAUTH_CLIENT_SECRET", Help: "its secret (OAuth)", Secret: true},
		{Name: "MCPFLEET_ALLOWED_ORIGINS", Help: "comma-separated Origins allowed on HTTP besides loopback ones"},
		{Name: "MCPFLEET_METRICS_ADDR", Help: "e.g. 127.0.0.1:9464: serve Prometheus /metrics on a listener of its own"},
		{Name: "MCPFLEET_REDIS_URL", Help: "redis://host:6379/0: share rate limits and caches between replicas (wins over the state file)", Secret: true},
		{Name: store.EnvMode, Help: "memory: keep limits, caches and stored data in memory only (default: file, see --state-dir)"},
		{Name: drift.EnvDir, Help: "where the drift seen at run time is kept for `mcpfleet doctor` (default: the state directory)"},
		{Name: drift.EnvSample, Help: "how often one route's body is checked for drift, a Go duration (default 1m; 0: every answer)"},
		{Name: "MCPFLEET_CPUPROFILE", Help: "file: write a CPU profile of the whole run (go tool pprof)"},
	}, telemetry.Env()...)
}

// printSpineEnv is SpineEnv and the transport limits, for --help.
func printSpineEnv(w io.Writer) {
	fmt.Fprintln(w, "environment (every server; env only):")
	for _, e := range SpineEnv() {
		fmt.Fprintf(w, "  %s  %s\n", e.Name, e.Help)
	}
	var names []string
	l := DefaultLimits()
	for _, v := range l.vars() {
		names = append(names, v.env)
	}
	fmt.Fprintf(w, "  %s\n        transport limits (docs/architecture.md)\n", strings.Join(names, ", "))
}
