// Package httpguard is the HTTP hardening in front of an MCP handler that
// knows nothing of MCP: request bodies bounded in size, time and memory held
// at once, a deadline on every response write, and the Origin check. Its
// refusals are written by the caller's Refuse (a JSON-RPC error for MCP).
package httpguard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Refuse answers a request the guard will not pass on, before its body was
// read: it should close the connection after the answer, so an unread (maybe
// slow) body is not drained. Body alone reads on, for at most drainGrace,
// after the refusals a well-behaved client gets while still sending (503, 408).
type Refuse func(w http.ResponseWriter, status int, msg string)

// BodyDeadline bounds every read of the request body, including the one
// net/http makes to discard an unread body after a refusal (a slow drip would
// otherwise hold the connection for ever). Body lifts it once the body
// is in: a read deadline while mcp-go streams a response would cancel it.
func BodyDeadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		next.ServeHTTP(w, r)
	})
}

// WriteDeadline gives each write of the response d to reach the client. A
// client that stops reading (a slow-read attack, or a dead peer behind a
// proxy) then loses its connection instead of holding it for ever, while a
// stream that keeps being read (SSE, progress) may last as long as it needs:
// the deadline moves forward with every write.
func WriteDeadline(d time.Duration, next http.Handler) http.Handler {
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

// Body reads a POST body, at most maxBody bytes (413 beyond, checked on
// Content-Length first) within timeout (408 for a slower body), and only
// while the bytes of all bodies being held stay within budgetBytes (503 when
// a burst of large bodies would pass it). The handler after it reads the body
// from memory (Bytes). mcp-go reads the body with io.ReadAll and would answer
// an oversized one with a generic 400.
func Body(maxBody, budgetBytes int64, timeout time.Duration, refuse Refuse, next http.Handler) http.Handler {
	budget := semaphore.NewWeighted(budgetBytes)
	var release memoryRelease
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
		wctx, cancel := context.WithTimeout(r.Context(), timeout)
		err := budget.Acquire(wctx, size)
		cancel()
		if err != nil {
			w.Header().Set("Retry-After", "1")
			refuseAndDrain(rc, w, r.Body, maxBody, refuse, http.StatusServiceUnavailable, "too many large requests at once; retry in a second")
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
			refuseAndDrain(rc, w, r.Body, maxBody, refuse, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %s", timeout))
			return
		case err != nil:
			refuse(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		_ = rc.SetReadDeadline(time.Time{})
		r.Body = buffered{bytes.NewReader(data), data}
		next.ServeHTTP(w, r)
	})
}

// drainGrace bounds how long a refused, unread body is still read after the
// answer. Closing a connection with unread bytes resets it (RFC 9112 §9.6):
// the client's next write fails, and a client that sees that failure before
// the answer (Go's does) loses the 503 and its Retry-After. net/http waits
// only 500 ms before that close, which a client on a busy machine misses.
const drainGrace = time.Second

// refuseAndDrain answers a client that may still be sending its body (it
// waited for the budget, or was late), then reads and discards up to max
// bytes of the body for drainGrace, so that client completes its write and
// reads the answer. Nothing read is kept.
func refuseAndDrain(rc *http.ResponseController, w http.ResponseWriter, body io.Reader, max int64, refuse Refuse, status int, msg string) {
	_ = rc.EnableFullDuplex() // net/http would otherwise close the body once the answer is written
	refuse(w, status, msg)
	_ = rc.Flush()
	_ = rc.SetReadDeadline(time.Now().Add(drainGrace))
	_, _ = io.Copy(io.Discard, io.LimitReader(body, max))
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

type buffered struct {
	*bytes.Reader
	data []byte
}

func (buffered) Close() error { return nil }

// Bytes returns the body Body read (without copying it), or reads it.
func Bytes(r *http.Request) []byte {
	if b, ok := r.Body.(buffered); ok {
		return b.data
	}
	if r.Body == nil {
		return nil
	}
	data, _ := io.ReadAll(r.Body)
	r.Body = buffered{bytes.NewReader(data), data}
	return data
}

// Origin answers 403 when a browser sends a foreign Origin (DNS rebinding,
// cross-site requests). Loopback origins and allowed ones (MCPFLEET_ALLOWED_ORIGINS) pass; no
// Origin (non-browser clients) passes. Scheme and host compare
// case-insensitively (RFC 6454 serialises both in lower case). mcp-go's own
// Host check stays on.
func Origin(allowed []string, refuse Refuse, next http.Handler) http.Handler {
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
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost: localhost or a loopback IP.
func IsLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
