package upstream

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer = servetest.Buffer

// fake is a loopback upstream whose handler can be swapped and whose hits are counted.
type fake struct {
	*httptest.Server
	hits atomic.Int64
}

func newFake(t *testing.T, h http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

// testClient is a client with short timings for tests, logging to logs.
func testClient(base string, logs *syncBuffer, mod func(*Config)) *Client {
	cfg := Config{
		Name: "ktrdr", BaseURL: base, URLEnv: "KTRDR_API_URL",
		Timeout: 2 * time.Second, Retries: 2,
		RetryWait: 10 * time.Millisecond, RetryMaxWait: 50 * time.Millisecond,
		MaxRetryAfter: 2 * time.Second,
	}
	if logs != nil {
		cfg.Logger = zerolog.New(logs).Level(zerolog.DebugLevel)
	}
	if mod != nil {
		mod(&cfg)
	}
	return New(cfg)
}

// closedURL is a loopback URL nobody listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

type errWant struct {
	code      envelope.Code
	retryable bool
	sub       string
}

func checkErr(t *testing.T, err error, w errWant) *envelope.Error {
	t.Helper()
	if w.code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return nil
	}
	var e *envelope.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *envelope.Error", err, err)
	}
	if e.Code != w.code || e.Retryable != w.retryable {
		t.Errorf("got %s retryable=%v, want %s retryable=%v (%q)", e.Code, e.Retryable, w.code, w.retryable, e.Message)
	}
	if !strings.Contains(e.Message, w.sub) {
		t.Errorf("message %q does not contain %q", e.Message, w.sub)
	}
	return e
}

// waitDone blocks a handler until the client goes away (so Close never hangs). The
// body is drained first: net/http only notices a closed connection once it has.
func waitDone(r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}

var bg = context.Background()

// httptestServer is a loopback JSON server for benchmarks.
func httptestServer(b *testing.B) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"success":true,"data":[1,2,3]}`))
	}))
	b.Cleanup(s.Close)
	return s.URL
}
