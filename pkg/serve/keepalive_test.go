package serve

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// streamSink is a ResponseWriter a stream and its keep-alive write to at once.
type streamSink struct {
	mu     sync.Mutex
	header http.Header
	code   int
	body   bytes.Buffer
}

func (s *streamSink) Header() http.Header { return s.header }
func (s *streamSink) WriteHeader(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.code == 0 {
		s.code = code
	}
}
func (s *streamSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body.Write(p)
}
func (s *streamSink) Flush() {}
func (s *streamSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body.String()
}

// TestListenStreamKeepAlive: a quiet subscriptions/listen stream gets one
// SSE comment line per interval, never inside an event and none after the
// stream ends, and is marked X-Accel-Buffering: no; other POSTs get neither.
func TestListenStreamKeepAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const every = 15 * time.Second
		ctx, end := context.WithCancel(context.Background())
		h := sseKeepAlive(every, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("event: message\ndata: {\"ack\":1}\n\n"))
			<-r.Context().Done() // a quiet watch: nothing until the client goes
		}))
		serve := func(method string) *streamSink {
			r, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/mcp", nil)
			r = r.WithContext(context.WithValue(r.Context(), headKey{}, rpcHead{Method: method}))
			sink := &streamSink{header: http.Header{}}
			go h.ServeHTTP(sink, r)
			return sink
		}
		listen, call := serve("subscriptions/listen"), serve("tools/call")
		time.Sleep(3*every + time.Second)
		synctest.Wait()
		if n := strings.Count(listen.String(), keepAliveComment); n != 3 {
			t.Errorf("%d keep-alives in 3 intervals: %q", n, listen.String())
		}
		if !strings.HasPrefix(listen.String(), "event: message\ndata: {\"ack\":1}\n\n") {
			t.Errorf("the acknowledgement is not first and whole: %q", listen.String())
		}
		if got := listen.header.Get("X-Accel-Buffering"); got != "no" {
			t.Errorf("listen stream: X-Accel-Buffering %q, want no", got)
		}
		if strings.Contains(call.String(), keepAliveComment) || call.header.Get("X-Accel-Buffering") != "" {
			t.Errorf("a tools/call answer got the listen stream's keep-alive: %q %v", call.String(), call.header)
		}
		end()
		synctest.Wait()
		before := listen.String()
		time.Sleep(2 * every)
		synctest.Wait()
		if listen.String() != before {
			t.Errorf("written after the stream ended: %q", listen.String()[len(before):])
		}
	})
}
