package serve

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// keepAliveComment is an SSE comment line: clients ignore it (WHATWG HTML,
// Server-sent events, "lines starting with a colon"), proxies see traffic.
const keepAliveComment = ": keep-alive\n\n"

// sseKeepAlive marks every event stream it passes (GET streams and
// subscriptions/listen answers) X-Accel-Buffering: no, so nginx-style
// proxies pass each event on at once instead of buffering it, and writes a
// comment line on a 2026-07-28 subscriptions/listen stream every `every`:
// mcp-go v1.2.1 sends nothing on a quiet listen stream, and a proxy's idle
// timeout then cuts the watch. The GET stream has mcp-go's ping heartbeat.
func sseKeepAlive(every time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		listen := false
		switch r.Method {
		case http.MethodGet:
		case http.MethodPost:
			head, _ := r.Context().Value(headKey{}).(rpcHead)
			if listen = head.Method == string(mcp.MethodSubscriptionsListen); !listen {
				next.ServeHTTP(w, r)
				return
			}
		default:
			next.ServeHTTP(w, r)
			return
		}
		sw := &sseWriter{ResponseWriter: w}
		if listen {
			t := time.NewTicker(every)
			done := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					case <-t.C:
						sw.comment()
					}
				}
			}()
			defer func() { t.Stop(); close(done); wg.Wait() }()
		}
		defer sw.finish()
		next.ServeHTTP(sw, r)
	})
}

// sseWriter serialises the handler's writes with the keep-alive's, so a
// comment never lands inside an event, and writes nothing once the handler
// returned.
type sseWriter struct {
	http.ResponseWriter
	mu       sync.Mutex
	wrote    bool // the header is out
	stream   bool // the answer is a 200 text/event-stream
	finished bool
}

func (s *sseWriter) WriteHeader(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeHeader(code)
}

func (s *sseWriter) writeHeader(code int) {
	if s.wrote {
		return
	}
	s.wrote = true
	if strings.HasPrefix(s.Header().Get("Content-Type"), "text/event-stream") {
		s.Header().Set("X-Accel-Buffering", "no")
		s.stream = code == http.StatusOK
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sseWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeHeader(http.StatusOK) // an implicit 200 is marked too
	return s.ResponseWriter.Write(p)
}

func (s *sseWriter) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

func (s *sseWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *sseWriter) comment() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stream || s.finished {
		return
	}
	if _, err := io.WriteString(s.ResponseWriter, keepAliveComment); err == nil {
		_ = http.NewResponseController(s.ResponseWriter).Flush()
	}
}

func (s *sseWriter) finish() { s.mu.Lock(); s.finished = true; s.mu.Unlock() }
