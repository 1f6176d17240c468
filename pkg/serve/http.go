package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"golang.org/x/net/netutil"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
	"github.com/mcpfleet/mcpfleet/pkg/httpguard"
	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/sessions"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// MaxBodyBytes is the default largest request body (go-sdk's default); see Limits.
const MaxBodyBytes = 4 << 20

// HTTPHandler is the full HTTP surface: /mcp behind the Origin check, bearer
// auth, the body limit and the JSON-RPC and session gate, and an
// unauthenticated /healthz.
func HTTPHandler(b *Built) http.Handler {
	lim := b.Options.Limits
	rdb := b.Registry.Redis // nil: this process alone
	store := sessions.NewMemory(lim.MaxSessions, lim.MaxUserSessions)
	if rdb != nil {
		// Replicas share legacy sessions: any one accepts a live id, all
		// answer 404 for an ended one (docs/deploy.md, "Sessions across replicas").
		store = sessions.NewRedis(rdb, lim.SessionIdleTTL, lim.MaxSessions, lim.MaxUserSessions)
	}
	sess := sessions.NewManager(store, b.Log)
	mcpHandler := server.NewStreamableHTTPServer(b.Server,
		// Stateful: legacy (2025-11-25) sessions are tracked so a terminated one
		// answers 404; 2026-07-28 clients are stateless either way. The resolver
		// binds each session to its bearer user and caps how many there are.
		server.WithSessionIdManagerResolver(sess),
		// mcp-go's sweeper expires idle sessions through sess.Terminate and
		// frees its own per-session state (clientInfo, capabilities, stores).
		server.WithSessionIdleTTL(lim.SessionIdleTTL),
		server.WithHeartbeatInterval(25*time.Second),
		server.WithStreamableHTTPLogger(slog.New(zerolog.NewSlogHandler(b.Log.Level(max(b.Log.GetLevel(), zerolog.WarnLevel))))),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			if p, ok := auth.FromContext(r.Context()); ok {
				ctx = auth.WithPrincipal(ctx, p)
			}
			return identity.WithUser(ctx, identity.UserID(r.Context()))
		}),
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	// Order matters: nothing of the body is read before the Origin and the
	// token passed, and then at most MaxBodyBytes within BodyTimeout.
	var h http.Handler = scopeResponses(toolkit.NewDelivery(), mcpHandler)
	h = unknownToolGate(newToolNames(b.Registry), h)
	h = resourceGate(b.Registry, h)
	h = sseKeepAlive(lim.ListenKeepAlive, h)
	h = sess.EndStreams(rdb, h)
	h = scopeGate(b, h)
	h = rpcGate(lim, sess, h)
	h = httpguard.Body(lim.MaxBodyBytes, lim.BodyBudgetBytes, lim.BodyTimeout, refuse, h)
	h = authenticate(b, mux, h)
	h = httpguard.Origin(b.Options.AllowOrigins, refuse, h)
	h = httpguard.BodyDeadline(lim.BodyTimeout, h)
	h = httpguard.WriteDeadline(lim.WriteTimeout, h)
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	mountPages(b, mux)
	return mux
}

// refuse answers before the body was read: the connection closes after the
// answer, so an unread (maybe slow) body is not drained (httpguard.Refuse).
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	rpcError(w, status, nil, -32600, msg)
}

// rpcError writes a JSON-RPC error; id nil is written as null (JSON-RPC 2.0 §5:
// the id could not be determined).
func rpcError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(rpcErrorLine(id, code, msg))
}

// checkListen refuses a non-loopback address unless callers must authenticate.
func checkListen(addr string, authenticated bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q is not host:port: %v", addr, err)
	}
	if httpguard.IsLoopbackHost(host) || authenticated {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without authentication: anyone who can reach it could use this server's credentials; set MCPFLEET_AUTH_TOKENS=user=token,..., or MCPFLEET_AUTH_ISSUED=1 with tokens from `mcpfleet token issue`, or MCPFLEET_OAUTH_ISSUER and MCPFLEET_PUBLIC_URL, or listen on 127.0.0.1", addr)
}

// serveHTTP runs the HTTP transport until ctx ends, then shuts down gracefully.
// Run has checked the address (checkListen).
func serveHTTP(ctx context.Context, b *Built) error {
	log := b.Log
	ln, err := net.Listen("tcp", b.Options.Addr)
	if err != nil {
		return err
	}
	lim := b.Options.Limits
	// Past MaxConns, connections wait in the kernel's backlog unaccepted.
	ln = netutil.LimitListener(ln, lim.MaxConns)
	srv := &http.Server{
		Handler:           HTTPHandler(b),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		// No ReadTimeout or WriteTimeout: both would cut long SSE responses
		// (a read deadline cancels the request's context). Bodies get their
		// own deadline (httpguard.BodyDeadline, httpguard.Body).
		IdleTimeout:    lim.IdleTimeout,
		MaxHeaderBytes: lim.MaxHeaderBytes,
	}
	log.Info().Str("addr", ln.Addr().String()).Bool("auth", len(b.Options.AuthTokens) > 0).Bool("oauth", b.Options.OAuth != nil).Bool("issued_tokens", b.Issued != nil).Msg("serving MCP over HTTP at /mcp")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info().Msg("stopped")
	return nil
}
