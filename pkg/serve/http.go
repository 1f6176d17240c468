package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
	"golang.org/x/net/netutil"
	"golang.org/x/sync/semaphore"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
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
	rdb := sharedRedis(b)
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
	// Order matters: nothing of the body is read before the Origin and the
	// token passed, and then at most MaxBodyBytes within BodyTimeout.
	var h http.Handler = scopeResponses(toolkit.NewDelivery(), mcpHandler)
	h = unknownToolGate(newToolNames(b.Registry), h)
	h = resourceGate(b.Registry, h)
	h = sessions.EndStreamsOnDelete(rdb, h)
	h = scopeGate(b, h)
	h = rpcGate(lim, sess, h)
	h = bodyLimit(lim, h)
	h = authenticate(b, mux, h)
	h = originCheck(b.Options.AllowOrigins, h)
	h = bodyDeadline(lim.BodyTimeout, h)
	h = writeDeadline(lim.WriteTimeout, h)
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	return mux
}

// sharedRedis is the Redis replicas share, or nil.
func sharedRedis(b *Built) *redis.Client {
	if b.Registry == nil {
		return nil
	}
	return b.Registry.Redis
}

// bodyDeadline bounds every read of the request body, including the one
// net/http makes to discard an unread body after a refusal (a slow drip would
// otherwise hold the connection for ever). bodyLimit lifts it once the body
// is in: a read deadline while mcp-go streams a response would cancel it.
func bodyDeadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		next.ServeHTTP(w, r)
	})
}

// writeDeadline gives each write of the response d to reach the client. A
// client that stops reading (a slow-read attack, or a dead peer behind a
// proxy) then loses its connection instead of holding it for ever, while a
// stream that keeps being read (SSE, progress) may last as long as it needs:
// the deadline moves forward with every write.
func writeDeadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
		next.ServeHTTP(dw, r)
		dw.arm() // net/http flushes what is buffered after the handler returns
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

// arm moves the deadline to d from now.
func (w *deadlineWriter) arm() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) WriteHeader(status int) {
	w.arm()
	w.ResponseWriter.WriteHeader(status)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.arm()
	_ = w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection (deadlines, flush).
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyLimit reads a POST body, at most lim.MaxBodyBytes (413 beyond, checked on
// Content-Length first) within lim.BodyTimeout (408 for a slower body), and
// only while the bytes of all bodies being held stay within lim.BodyBudgetBytes
// (503 when a burst of large bodies would pass it). mcp-go reads the body with
// io.ReadAll and would answer an oversized one with a generic 400.
func bodyLimit(lim Limits, next http.Handler) http.Handler {
	budget := semaphore.NewWeighted(lim.BodyBudgetBytes)
	var release memoryRelease
	maxBody := lim.MaxBodyBytes
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
			_ = rc.SetReadDeadline(time.Time{})
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > maxBody {
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBody))
			return
		}
		size := r.ContentLength
		if size < 0 { // chunked: reserve the most it may be
			size = maxBody
		}
		size = max(size, 1)
		wctx, cancel := context.WithTimeout(r.Context(), lim.BodyTimeout)
		err := budget.Acquire(wctx, size)
		cancel()
		if err != nil {
			w.Header().Set("Retry-After", "1")
			refuse(w, http.StatusServiceUnavailable, "too many large requests at once; retry in a second")
			return
		}
		defer budget.Release(size)
		data, err := readBody(http.MaxBytesReader(w, r.Body, maxBody), r.ContentLength)
		defer release.after(max(int(r.ContentLength), len(data))) // what the read allocated, on error too
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBody))
			return
		case errors.As(err, &ne) && ne.Timeout():
			refuse(w, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %s", lim.BodyTimeout))
			return
		case err != nil:
			refuse(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		_ = rc.SetReadDeadline(time.Time{})
		r.Body = bufferedBody{bytes.NewReader(data), data}
		next.ServeHTTP(w, r)
	})
}

// memoryRelease hands memory back to the OS 2 s after a request with a body of
// 1 MiB or more ends, at most once per 2 s. mcp-go allocates about 14 times
// such a body while handling it (58 MB for a 4 MiB tools/call), and an idle
// Go process collects that garbage only at its next forced GC, two minutes
// later: without this a burst of large bodies stays in RSS (the hostile suite
// bounds RSS 30 s after a burst). It changes no runtime setting.
type memoryRelease struct{ pending atomic.Bool }

func (m *memoryRelease) after(n int) {
	if n < 1<<20 || !m.pending.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(2*time.Second, func() {
		// Cleared first: a request that ends while the collection runs
		// schedules the next one instead of leaving its garbage in RSS.
		m.pending.Store(false)
		debug.FreeOSMemory()
	})
}

// readBody reads a body of known length into one buffer of that size
// (io.ReadAll grows and copies it, leaving twice its size to collect), or of
// unknown length with io.ReadAll.
func readBody(r io.Reader, n int64) ([]byte, error) {
	if n < 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// originCheck answers 403 when a browser sends a foreign Origin (DNS rebinding,
// cross-site requests). Loopback origins and MCPFLEET_ALLOWED_ORIGINS pass; no
// Origin (non-browser clients) passes. Scheme and host compare
// case-insensitively (RFC 6454 serialises both in lower case). mcp-go's own
// Host check stays on.
func originCheck(allowed []string, next http.Handler) http.Handler {
	allow := map[string]bool{}
	for _, o := range allowed {
		allow[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !allow[strings.TrimRight(strings.ToLower(origin), "/")] && !isLoopbackOrigin(origin) {
			refuse(w, http.StatusForbidden, "origin not allowed")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func isLoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Opaque != "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// refuse answers before the body was read: the connection closes after the
// answer, so an unread (maybe slow) body is never drained.
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
	if isLoopbackHost(host) || authenticated {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without authentication: anyone who can reach it could use this server's credentials; set MCPFLEET_AUTH_TOKENS=user=token,..., or MCPFLEET_AUTH_ISSUED=1 with tokens from `mcpfleet token issue`, or MCPFLEET_OAUTH_ISSUER and MCPFLEET_PUBLIC_URL, or listen on 127.0.0.1", addr)
}

// serveHTTP runs the HTTP transport until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, b *Built, log zerolog.Logger) error {
	if err := checkListen(b.Options.Addr, b.Options.authenticated()); err != nil {
		return err
	}
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
		// own deadline (bodyDeadline, bodyLimit).
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
