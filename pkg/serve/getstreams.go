package serve

import (
	"context"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// endStreamsOnDelete ends a 2025-11-25 session's GET streams when a DELETE
// ends the session. mcp-go v1.2.1 answers the DELETE (200) and refuses the
// session's later POSTs (404) but leaves its GET stream open until the client
// goes: one leaked stream per ended session. The spec: "the client SHOULD
// send an HTTP DELETE ... to explicitly terminate the session" (2025-11-25
// basic/transports, Session Management), after which nothing of the session
// goes on.
func endStreamsOnDelete(next http.Handler) http.Handler {
	var mu sync.Mutex
	streams := map[string]map[*context.CancelFunc]struct{}{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get(server.HeaderKeySessionID)
		switch {
		case sid == "":
			next.ServeHTTP(w, r)
		case r.Method == http.MethodGet:
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			mu.Lock()
			if streams[sid] == nil {
				streams[sid] = map[*context.CancelFunc]struct{}{}
			}
			streams[sid][&cancel] = struct{}{}
			mu.Unlock()
			defer func() {
				mu.Lock()
				delete(streams[sid], &cancel)
				if len(streams[sid]) == 0 {
					delete(streams, sid)
				}
				mu.Unlock()
			}()
			next.ServeHTTP(w, r.WithContext(ctx))
		case r.Method == http.MethodDelete:
			rec := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			if rec.status == 0 || rec.status == http.StatusOK {
				mu.Lock()
				for cancel := range streams[sid] {
					(*cancel)()
				}
				mu.Unlock()
			}
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
