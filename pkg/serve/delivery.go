package serve

import (
	"io"
	"net/http"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// The writers below tell a toolkit.Scope what the transport wrote, so a tool's
// progress notifications go out before its result and the response to a
// cancelled request is left out (see pkg/toolkit/progress.go). mcp-go writes
// each message with one Write call, on stdio and on an SSE stream alike.

// scopeWriter is stdio's stdout seen by a scope. With peerRead (see
// waitPeerRead) a progress notification counts as delivered once the client
// has read it, so the result reaches the client in a later read.
type scopeWriter struct {
	w        io.Writer
	s        *toolkit.Scope
	peerRead func()
}

func (w scopeWriter) Write(p []byte) (int, error) {
	if w.s.Drop(p) {
		return len(p), nil
	}
	n, err := w.w.Write(p)
	if w.peerRead != nil && err == nil && toolkit.IsProgress(p) {
		w.peerRead()
	}
	w.s.Wrote(p)
	return n, err
}

// scopeResponses gives every HTTP request its own scope of d.
func scopeResponses(d *toolkit.Delivery, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := d.NewScope(r.Context())
		next.ServeHTTP(&scopeResponseWriter{ResponseWriter: w, s: s}, r.WithContext(toolkit.WithScope(r.Context(), s)))
	})
}

type scopeResponseWriter struct {
	http.ResponseWriter
	s *toolkit.Scope
}

func (w *scopeResponseWriter) Write(p []byte) (int, error) {
	if w.s.Drop(p) {
		return len(p), nil
	}
	n, err := w.ResponseWriter.Write(p)
	w.s.Wrote(p)
	return n, err
}

// Flush keeps the response streamable (mcp-go sends SSE only through a Flusher).
func (w *scopeResponseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *scopeResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
