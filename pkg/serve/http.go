package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// MaxBodyBytes is the largest request body the HTTP transport reads (go-sdk's default).
const MaxBodyBytes = 4 << 20

// HTTPHandler is the full HTTP surface: /mcp behind the body limit, Origin check
// and bearer auth, and an unauthenticated /healthz.
func HTTPHandler(b *Built) http.Handler {
	mcpHandler := server.NewStreamableHTTPServer(b.Server,
		// Stateful: legacy (2025-11-25) sessions are tracked so a terminated one
		// answers 404; 2026-07-28 clients are stateless either way.
		server.WithStateful(true),
		server.WithHeartbeatInterval(25*time.Second),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			if u, ok := r.Context().Value(userKey{}).(string); ok {
				return WithUser(ctx, u)
			}
			return ctx
		}),
	)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	var h http.Handler = mcpHandler
	h = bearerAuth(b.Options.AuthTokens, h)
	h = originCheck(b.Options.AllowOrigins, h)
	h = bodyLimit(MaxBodyBytes, h)
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	return mux
}

// bodyLimit answers 413 for a body over max. It reads the body up front (at most
// max+1 bytes) because mcp-go reads it with io.ReadAll and would answer 400.
func bodyLimit(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", max))
			return
		}
		if r.Body != nil && r.Method == http.MethodPost {
			data, err := io.ReadAll(io.LimitReader(r.Body, max+1))
			if err != nil {
				httpError(w, http.StatusBadRequest, "could not read the request body")
				return
			}
			if int64(len(data)) > max {
				httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", max))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(data))
		}
		next.ServeHTTP(w, r)
	})
}

// originCheck answers 403 when a browser sends a foreign Origin (DNS rebinding,
// cross-site requests). Loopback origins and MCPFLEET_ALLOWED_ORIGINS pass; no
// Origin (non-browser clients) passes. mcp-go's own Host check stays on.
func originCheck(allowed []string, next http.Handler) http.Handler {
	allow := map[string]bool{}
	for _, o := range allowed {
		allow[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !allow[strings.ToLower(origin)] && !isLoopbackOrigin(origin) {
			httpError(w, http.StatusForbidden, "origin not allowed")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func isLoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// bearerAuth requires "Authorization: Bearer <token>" when tokens are configured
// and puts the token's user in the request context. Every configured token is
// compared in constant time, so timing tells nothing about which one is close.
func bearerAuth(tokens map[string]string, next http.Handler) http.Handler {
	if len(tokens) == 0 {
		return next
	}
	type entry struct {
		tok  []byte
		user string
	}
	var entries []entry
	for t, u := range tokens {
		entries = append(entries, entry{[]byte(t), u})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, got, ok := strings.Cut(h, " ")
		user := ""
		if ok && strings.EqualFold(scheme, "Bearer") {
			g := []byte(strings.TrimSpace(got))
			for _, e := range entries {
				if subtle.ConstantTimeCompare(g, e.tok) == 1 {
					user = e.user
				}
			}
		}
		if user == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcpfleet"`)
			httpError(w, http.StatusUnauthorized, "missing or invalid bearer token")
			return
		}
		next.ServeHTTP(w, r.WithContext(WithUser(r.Context(), user)))
	})
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":-32600,"message":%q}}`, msg)
}

// checkListen refuses a non-loopback address unless bearer tokens are set.
func checkListen(addr string, tokens map[string]string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q is not host:port: %v", addr, err)
	}
	if isLoopbackHost(host) || len(tokens) > 0 {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without authentication: anyone who can reach it could use this server's credentials; set MCPFLEET_AUTH_TOKENS=user=token,... or listen on 127.0.0.1", addr)
}

// serveHTTP runs the HTTP transport until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, b *Built, log zerolog.Logger) error {
	if err := checkListen(b.Options.Addr, b.Options.AuthTokens); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", b.Options.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           HTTPHandler(b),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	log.Info().Str("addr", ln.Addr().String()).Bool("auth", len(b.Options.AuthTokens) > 0).Msg("serving MCP over HTTP at /mcp")
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
