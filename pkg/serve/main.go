package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/telemetry"
)

// Main runs app with os.Args and exits. It never writes to stdout except the
// MCP protocol (stdio) and --version.
func Main(app App) {
	os.Exit(Run(context.Background(), app, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run is Main without the exit, for tests.
func Run(ctx context.Context, app App, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	redact.RegisterEnv()
	stopProfile, err := startCPUProfile(env.Or("MCPFLEET_CPUPROFILE", ""))
	if err != nil {
		fmt.Fprintln(stderr, err)
	}
	if stopProfile != nil {
		defer stopProfile()
	}
	if len(args) > 0 {
		if cmd, ok := app.Commands[args[0]]; ok {
			return cmd(ctx, args[1:])
		}
	}
	o, err := ParseOptions(app, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, app.Name+":", err)
		return 2
	}
	if o.Version {
		fmt.Fprintln(stdout, app.Name, resolveVersion(app.Version))
		return 0
	}
	if err := env.CheckPlaceholders(app.Env, os.Environ()); err != nil {
		fmt.Fprintln(stderr, app.Name+":", err)
		return 2
	}
	logger, err := NewLoggerFormat(stderr, o.LogLevel, o.LogFormat)
	if err != nil {
		fmt.Fprintln(stderr, app.Name+":", err)
		return 2
	}
	if o.Transport == "http" {
		// Check before Register so a refused address fails fast with its reason.
		if err := checkListen(o.Addr, o.authenticated()); err != nil {
			logger.Error().Msg(err.Error())
			fmt.Fprintln(stderr, app.Name+":", err)
			return 2
		}
	}
	tracing, err := telemetry.FromEnv(ctx, os.Getenv, app.Name, resolveVersion(app.Version))
	if err != nil {
		fmt.Fprintln(stderr, app.Name+":", err)
		return 2
	}
	defer flushTraces(tracing, logger)
	o.Tracing = tracing.Provider
	b, err := Build(ctx, app, o, logger)
	if err != nil {
		logger.Error().Err(err).Msg("start-up failed")
		return 1
	}
	defer b.Registry.state.close()
	stopMetrics, err := startMetrics(o.MetricsAddr, b.Log)
	if err != nil {
		b.Log.Error().Err(err).Msg("MCPFLEET_METRICS_ADDR: cannot listen")
		return 1
	}
	defer stopMetrics()
	switch o.Transport {
	case "http":
		err = serveHTTP(ctx, b)
	default:
		b.Log.Info().Int("tools", len(b.Registry.Tools())).Msg("serving MCP over stdio")
		err = serveStdio(ctx, b, stdin, stdout, stderr)
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		b.Log.Error().Err(err).Msg("transport stopped")
		return 1
	}
	return 0
}

// startCPUProfile writes a CPU profile of the whole run to path
// (MCPFLEET_CPUPROFILE) for `go tool pprof`: where a server's time goes under
// a real client. An empty path starts nothing: a nil stop and no error.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("MCPFLEET_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// flushTraces sends the spans still queued before the process exits,
// waiting at most 5 s for the collector (signal or EOF ended ctx already).
func flushTraces(t *telemetry.Tracing, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.Shutdown(ctx); err != nil {
		log.Warn().Err(err).Msg("traces not flushed to the OTLP collector")
	}
}
