package serve

import (
	"flag"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"go.opentelemetry.io/otel/trace"
)

// Options are the flags every server shares. Each has an MCPFLEET_* env fallback.
type Options struct {
	Transport    string
	Addr         string
	ReadOnly     bool
	Tools        []string
	ExcludeTools []string
	LogLevel     string
	LogFormat    string // auto, json or console
	Version      bool
	AuthTokens   map[string]string // token -> user, from MCPFLEET_AUTH_TOKENS only (never a flag: argv is visible to other users)
	AllowOrigins []string          // extra allowed Origins besides loopback ones, MCPFLEET_ALLOWED_ORIGINS
	RedisURL     string            // shared limits and caches across replicas; env only (it may hold a password)
	State        string            // StateFile or StateMemory, MCPFLEET_STATE
	StateDir     string            // --state-dir / MCPFLEET_STATE_DIR; "" for the platform's state directory
	MetricsAddr  string            // Prometheus /metrics listener, MCPFLEET_METRICS_ADDR; "" = off
	OAuth        *auth.Config      // OAuth 2.1 resource server (MCPFLEET_OAUTH_ISSUER + MCPFLEET_PUBLIC_URL), env only; nil: off
	AuthIssued   bool              // accept tokens from `mcpfleet token issue` (MCPFLEET_AUTH_ISSUED), env only
	Limits       Limits            // transport limits, MCPFLEET_HTTP_* / MCPFLEET_STDIO_* env only
	// Clock is the time the server's tools read; nil is the system clock.
	// Never a flag or a variable: in-process tests hand their fakes' clock
	// (pkg/clock) to the server so both agree on what day it is.
	Clock clock.Clock
	// Tracing is the tracer provider of the server's spans (pkg/telemetry);
	// nil or a no-op provider traces nothing and costs no call anything. Run
	// builds it from the OTEL_* variables; never a flag.
	Tracing trace.TracerProvider
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ParseOptions parses the common flags plus the app's own from args.
func ParseOptions(app App, args []string, stderr io.Writer) (Options, error) {
	fs := flag.NewFlagSet(app.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var tools, exclude string
	ro, _ := strconv.ParseBool(env.Or("MCPFLEET_READ_ONLY", "false"))
	fs.StringVar(&o.Transport, "transport", env.Or("MCPFLEET_TRANSPORT", "stdio"), "stdio or http [MCPFLEET_TRANSPORT]")
	fs.StringVar(&o.Addr, "addr", env.Or("MCPFLEET_ADDR", fmt.Sprintf("127.0.0.1:%d", app.DefaultPort)), "HTTP listen address [MCPFLEET_ADDR]")
	fs.BoolVar(&o.ReadOnly, "read-only", ro, "hide every tool that changes anything [MCPFLEET_READ_ONLY]")
	fs.StringVar(&tools, "tools", env.Or("MCPFLEET_TOOLS", ""), "comma-separated tools or toolsets to keep [MCPFLEET_TOOLS]")
	fs.StringVar(&exclude, "exclude-tools", env.Or("MCPFLEET_EXCLUDE_TOOLS", ""), "comma-separated tools or toolsets to drop [MCPFLEET_EXCLUDE_TOOLS]")
	fs.StringVar(&o.LogLevel, "log-level", env.Or("MCPFLEET_LOG_LEVEL", "info"), "debug, info, warn or error [MCPFLEET_LOG_LEVEL]")
	fs.StringVar(&o.LogFormat, "log-format", env.Or("MCPFLEET_LOG_FORMAT", "auto"), "auto (console on a terminal, else json), json or console [MCPFLEET_LOG_FORMAT]")
	fs.StringVar(&o.StateDir, "state-dir", env.Or("MCPFLEET_STATE_DIR", ""), "directory of the state file <server>.db (default $XDG_STATE_HOME/mcpfleet or ~/.local/state/mcpfleet) [MCPFLEET_STATE_DIR]")
	fs.BoolVar(&o.Version, "version", false, "print the version and exit")
	if app.Flags != nil {
		app.Flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [flags]", app.Name)
		for name := range app.Commands {
			fmt.Fprintf(stderr, " | %s %s ...", app.Name, name)
		}
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
		printSpineEnv(stderr)
		env.PrintHelp(stderr, app.Name, app.Env)
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.Transport != "stdio" && o.Transport != "http" {
		return o, fmt.Errorf("--transport must be stdio or http, not %q", o.Transport)
	}
	o.Tools, o.ExcludeTools = splitList(tools), splitList(exclude)
	tokens, err := parseTokens(env.Or("MCPFLEET_AUTH_TOKENS", ""))
	if err != nil {
		return o, err
	}
	o.AuthTokens = tokens
	o.AllowOrigins = splitList(env.Or("MCPFLEET_ALLOWED_ORIGINS", ""))
	o.RedisURL = env.Or("MCPFLEET_REDIS_URL", "")
	if o.State, err = StateMode(); err != nil {
		return o, err
	}
	o.MetricsAddr = env.Or("MCPFLEET_METRICS_ADDR", "")
	if o.OAuth, err = oauthFromEnv(); err != nil {
		return o, err
	}
	if v := env.Or("MCPFLEET_AUTH_ISSUED", ""); v != "" {
		if o.AuthIssued, err = strconv.ParseBool(v); err != nil {
			return o, fmt.Errorf("MCPFLEET_AUTH_ISSUED must be 1 (accept tokens from `mcpfleet token issue`) or 0, not %q", v)
		}
	}
	if o.Limits, err = limitsFromEnv(os.Getenv); err != nil {
		return o, err
	}
	return o, nil
}

// authenticated reports whether HTTP callers must show a token.
func (o Options) authenticated() bool { return len(o.AuthTokens) > 0 || o.OAuth != nil || o.AuthIssued }

// parseTokens reads "user=token,user2=token2". Errors never quote a token.
func parseTokens(s string) (map[string]string, error) {
	out := map[string]string{}
	for i, pair := range splitList(s) {
		user, tok, ok := strings.Cut(pair, "=")
		user, tok = strings.TrimSpace(user), strings.TrimSpace(tok)
		if !ok || user == "" || tok == "" {
			return nil, fmt.Errorf("MCPFLEET_AUTH_TOKENS entry %d is not user=token", i+1)
		}
		if strings.Contains(user, "#") {
			// "#" joins issuer and subject in OAuth users and marks issued-token users
			// (issued#<user>): a static user with one could pass for either.
			return nil, fmt.Errorf("MCPFLEET_AUTH_TOKENS: user %q contains '#'; choose a user name without it", user)
		}
		if len(tok) < 16 {
			return nil, fmt.Errorf("MCPFLEET_AUTH_TOKENS: the token of user %q is shorter than 16 characters", user)
		}
		if _, dup := out[tok]; dup {
			return nil, fmt.Errorf("MCPFLEET_AUTH_TOKENS: user %q reuses another user's token", user)
		}
		out[tok] = user
	}
	return out, nil
}

type toolFilter struct{ keepOnly, exclude map[string]bool }

func newToolFilter(o Options) toolFilter {
	set := func(xs []string) map[string]bool {
		if len(xs) == 0 {
			return nil
		}
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	return toolFilter{keepOnly: set(o.Tools), exclude: set(o.ExcludeTools)}
}

// keep decides one tool. Read-only wins over --tools, as in github-mcp-server.
func (f toolFilter) keep(t toolkit.Tool, readOnly bool) bool {
	ro := t.Tool.Annotations.ReadOnlyHint
	if readOnly && (ro == nil || !*ro) {
		return false
	}
	name := t.Name()
	if f.exclude[name] || (t.Toolset != "" && f.exclude[t.Toolset]) {
		return false
	}
	if f.keepOnly != nil {
		return f.keepOnly[name] || (t.Toolset != "" && f.keepOnly[t.Toolset])
	}
	return true
}
