package upstream

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// TestNoGoroutineLeaks runs every fault once and checks that, once the client's idle
// connections and the fake are closed, no goroutine is left behind (a hung read, a
// forgotten timer, a body never closed).
func TestNoGoroutineLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, h := range []http.HandlerFunc{ok200, sleepPast, hang, reset, truncated, malformed, html502, slowDrip, huge,
		burst(503, 1), retryAfter("1", 1)} {
		s := httptest.NewServer(h)
		c := testClient(s.URL, nil, func(c *Config) { c.Timeout = 300 * time.Millisecond; c.MaxBodyBytes = 1 << 20 })
		for _, m := range []string{"GET", "POST"} {
			_, _ = c.Do(bg, Request{Op: "op", Method: m, Path: "/x", JSON: map[string]int{"a": 1}})
		}
		c.CloseIdleConnections()
		s.CloseClientConnections()
		s.Close()
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= before+1 {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}
