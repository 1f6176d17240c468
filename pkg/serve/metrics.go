package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/metrics"
)

// sessionGauge is the hook set every server starts with: it keeps
// mcpfleet_sessions_active in step with the sessions mcp-go registers.
func sessionGauge(name string) *server.Hooks {
	h := &server.Hooks{}
	h.AddOnRegisterSession(func(context.Context, server.ClientSession) { metrics.SessionStarted(name) })
	h.AddOnUnregisterSession(func(context.Context, server.ClientSession) { metrics.SessionEnded(name) })
	return h
}

// startMetrics serves /metrics on addr (MCPFLEET_METRICS_ADDR), a listener of
// its own so the MCP port never exposes it; "" serves nothing. The returned
// stop closes it.
func startMetrics(addr string, log zerolog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("metrics listener stopped")
		}
	}()
	log.Info().Str("addr", ln.Addr().String()).Msg("serving Prometheus metrics at /metrics")
	return func() { _ = srv.Close() }, nil
}
