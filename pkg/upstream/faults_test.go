package upstream

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Handlers for each fault class a client must survive: latency past the
// deadline, resets, truncated and malformed bodies, HTML error pages, 429
// with Retry-After (RFC 9110 §10.2.3) and 5xx bursts.

func ok200(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"success":true,"data":[1,2]}`)
}

func sleepPast(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body) // so that r.Context() ends when the client leaves
	select {
	case <-time.After(5 * time.Second):
		ok200(w, r)
	case <-r.Context().Done():
	}
}

func hang(_ http.ResponseWriter, r *http.Request) { waitDone(r) }

func reset(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // RST instead of FIN
	}
	conn.Close()
}

func truncated(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "100")
	fmt.Fprint(w, `{"success":true,"da`) // then the handler returns: the server closes the connection
}

func malformed(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"orders":[1,2,}`)
}

func html502(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(502)
	fmt.Fprint(w, `<html><body><h1>502 Bad Gateway</h1>nginx</body></html>`)
}

func slowDrip(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	fl := w.(http.Flusher)
	for i := 0; i < 1000; i++ {
		if _, err := w.Write([]byte(" ")); err != nil {
			return
		}
		fl.Flush()
		select {
		case <-time.After(50 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
}

func huge(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	chunk := []byte(`[` + strings.Repeat(`1,`, 32<<10))
	for i := 0; i < 64; i++ { // 4 MiB
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// burst answers status n times, then 200.
func burst(status, n int) http.HandlerFunc {
	var count atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= int64(n) {
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"detail":"busy %d"}`, status)
			return
		}
		ok200(w, r)
	}
}

// retryAfter answers 429 with the header value n times, then 200.
func retryAfter(value string, n int) http.HandlerFunc {
	var count atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= int64(n) {
			w.Header().Set("Retry-After", value)
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"Too Many Requests"}`)
			return
		}
		ok200(w, r)
	}
}

func TestFaults(t *testing.T) {
	const timeout = 400 * time.Millisecond
	tests := []struct {
		name       string
		handler    http.HandlerFunc // nil = closed port
		method     string
		idempotent bool
		maxBody    int64
		want       errWant
		attempts   int
		hits       int // -1 = don't check
		minElapsed time.Duration
	}{
		{"ok", ok200, "GET", false, 0, errWant{}, 1, 1, 0},
		{"latency past deadline GET", sleepPast, "GET", false, 0, errWant{envelope.Timeout, true, "ktrdr did not answer op within 400ms"}, 1, 1, timeout},
		{"latency past deadline POST", sleepPast, "POST", false, 0, errWant{envelope.OutcomeUnknown, false, "may have been processed by ktrdr; check before repeating"}, 1, 1, timeout},
		{"latency past deadline idempotent POST", sleepPast, "POST", true, 0, errWant{envelope.Timeout, true, "did not answer"}, 1, 1, timeout},
		{"hang GET", hang, "GET", false, 0, errWant{envelope.Timeout, true, "did not answer"}, 1, 1, timeout},
		{"hang POST", hang, "POST", false, 0, errWant{envelope.OutcomeUnknown, false, "check before repeating"}, 1, 1, timeout},
		{"connection refused GET", nil, "GET", false, 0, errWant{envelope.UpstreamUnavailable, true, "cannot reach ktrdr at http://127.0.0.1:"}, 3, -1, 0},
		{"connection refused POST (never left: retried)", nil, "POST", false, 0, errWant{envelope.UpstreamUnavailable, true, "is it running? set KTRDR_API_URL"}, 3, -1, 0},
		{"connection reset GET", reset, "GET", false, 0, errWant{envelope.UpstreamUnavailable, true, "connection"}, 3, 3, 0},
		{"connection reset POST", reset, "POST", false, 0, errWant{envelope.OutcomeUnknown, false, "check before repeating"}, 1, 1, 0},
		{"connection reset idempotent POST", reset, "POST", true, 0, errWant{envelope.UpstreamUnavailable, true, "connection"}, 3, 3, 0},
		{"truncated body GET", truncated, "GET", false, 0, errWant{envelope.UpstreamError, true, "cut off"}, 3, 3, 0},
		{"truncated body POST", truncated, "POST", false, 0, errWant{envelope.OutcomeUnknown, false, "check before repeating"}, 1, 1, 0},
		{"malformed JSON is the caller's", malformed, "GET", false, 0, errWant{}, 1, 1, 0},
		{"HTML 502 GET", html502, "GET", false, 0, errWant{envelope.UpstreamUnavailable, true, "ktrdr answered 502 Bad Gateway to op"}, 3, 3, 0},
		{"HTML 502 POST", html502, "POST", false, 0, errWant{envelope.OutcomeUnknown, false, "ktrdr answered 502 Bad Gateway; the request may have been processed"}, 1, 1, 0},
		{"HTML 502 idempotent POST", html502, "POST", true, 0, errWant{envelope.UpstreamUnavailable, true, "502"}, 3, 3, 0},
		{"bare 500 POST", burst(500, 1), "POST", false, 0, errWant{envelope.UpstreamError, true, "busy 500"}, 1, 1, 0},
		{"503 burst then 200 GET", burst(503, 2), "GET", false, 0, errWant{}, 3, 3, 0},
		{"500 burst then 200 GET", burst(500, 2), "GET", false, 0, errWant{}, 3, 3, 0},
		{"503 burst POST not retried", burst(503, 2), "POST", false, 0, errWant{envelope.UpstreamUnavailable, true, "busy 503"}, 1, 1, 0},
		{"503 burst idempotent POST retried", burst(503, 2), "POST", true, 0, errWant{}, 3, 3, 0},
		{"504 burst longer than retries", burst(504, 5), "GET", false, 0, errWant{envelope.UpstreamUnavailable, true, "busy 504"}, 3, 3, 0},
		{"500 burst longer than retries", burst(500, 5), "GET", false, 0, errWant{envelope.UpstreamError, true, "busy 500"}, 3, 3, 0},
		{"404 not retried", burst(404, 5), "GET", false, 0, errWant{envelope.NotFound, false, "busy 404"}, 1, 1, 0},
		{"slow drip body", slowDrip, "GET", false, 0, errWant{envelope.Timeout, true, "did not answer"}, 1, 1, timeout},
		{"huge body", huge, "GET", false, 1 << 20, errWant{envelope.UpstreamError, false, "larger than 1048576 bytes"}, 1, 1, 0},
		{"429 retry-after too long for the deadline", retryAfter("1", 1), "GET", false, 0, errWant{envelope.RateLimited, true, "Too Many Requests"}, 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := ""
			var f *fake
			if tt.handler == nil {
				base = closedURL(t)
			} else {
				f = newFake(t, tt.handler)
				base = f.URL
			}
			c := testClient(base, nil, func(c *Config) {
				c.Timeout = timeout
				c.MaxBodyBytes = tt.maxBody
				c.Detectors = []extract.Detector{extract.FastAPI, extract.ChartImg}
			})
			start := time.Now()
			resp, err := c.Do(bg, Request{Op: "op", Method: tt.method, Path: "/x", JSON: map[string]int{"a": 1}, Idempotent: tt.idempotent})
			elapsed := time.Since(start)
			e := checkErr(t, err, tt.want)
			if resp == nil {
				t.Fatal("nil response")
			}
			if resp.Attempts != tt.attempts {
				t.Errorf("attempts = %d, want %d", resp.Attempts, tt.attempts)
			}
			if f != nil && tt.hits >= 0 && int(f.hits.Load()) != tt.hits {
				t.Errorf("upstream hits = %d, want %d", f.hits.Load(), tt.hits)
			}
			if elapsed > timeout+500*time.Millisecond {
				t.Errorf("call took %s, past its %s deadline", elapsed, timeout)
			}
			if elapsed < tt.minElapsed-20*time.Millisecond {
				t.Errorf("call ended after %s, before the %s deadline", elapsed, tt.minElapsed)
			}
			transportFault := false
			for _, w := range []string{"latency", "hang", "refused", "reset", "truncated", "slow drip", "huge"} {
				transportFault = transportFault || strings.Contains(tt.name, w)
			}
			if transportFault && len(resp.Body) != 0 {
				t.Errorf("a failed transfer returned %d body bytes", len(resp.Body))
			}
			if e != nil && strings.Contains(tt.name, "truncated") && len(resp.Body) != 0 {
				t.Error("partial body returned")
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name      string
		value     string
		n         int
		want      errWant
		attempts  int
		minWait   time.Duration
		retryAftr time.Duration // expected RetryAfter on the error (approx)
	}{
		{"seconds honoured", "1", 1, errWant{}, 2, 900 * time.Millisecond, 0},
		{"http-date honoured", "", 1, errWant{}, 2, 0, 0}, // value filled below: now+1s
		{"over the cap: give up", "30", 1, errWant{envelope.RateLimited, true, "Too Many Requests"}, 1, 0, 30 * time.Second},
		{"http-date over the cap", "date+3600", 1, errWant{envelope.RateLimited, true, "Too Many Requests"}, 1, 0, time.Hour},
		{"no header: backoff", "x", 1, errWant{}, 2, 0, 0},
		{"429 forever", "0", 9, errWant{envelope.RateLimited, true, "Too Many Requests"}, 3, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := tt.value
			switch {
			case tt.name == "http-date honoured":
				v = time.Now().Add(1500 * time.Millisecond).UTC().Format(http.TimeFormat)
			case strings.HasPrefix(v, "date+"):
				s, _ := strconv.Atoi(strings.TrimPrefix(v, "date+"))
				v = time.Now().Add(time.Duration(s) * time.Second).UTC().Format(http.TimeFormat)
			}
			f := newFake(t, retryAfter(v, tt.n))
			c := testClient(f.URL, nil, func(c *Config) { c.Detectors = []extract.Detector{extract.ChartImg} })
			start := time.Now()
			resp, err := c.Do(bg, Request{Op: "op", Path: "/x"})
			e := checkErr(t, err, tt.want)
			if resp.Attempts != tt.attempts {
				t.Errorf("attempts = %d, want %d", resp.Attempts, tt.attempts)
			}
			if el := time.Since(start); el < tt.minWait || el > 2*time.Second+500*time.Millisecond {
				t.Errorf("elapsed %s, want ≥ %s and within the deadline", el, tt.minWait)
			}
			if e != nil && tt.retryAftr > 0 {
				if d := e.RetryAfter - tt.retryAftr; d < -2*time.Second || d > 2*time.Second {
					t.Errorf("retry-after = %s, want ≈ %s", e.RetryAfter, tt.retryAftr)
				}
			}
		})
	}
}

// TestFinalAnswerNotRetried: an answer Config.Final calls final (a daily
// quota used up) ends the call after one attempt; others are still retried.
func TestFinalAnswerNotRetried(t *testing.T) {
	for _, tt := range []struct {
		body     string
		attempts int
	}{{`{"message":"Limit Exceeded"}`, 1}, {`{"message":"Too Many Requests"}`, 3}} {
		t.Run(tt.body, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(429)
				fmt.Fprint(w, tt.body)
			})
			c := testClient(f.URL, nil, func(c *Config) {
				c.Detectors = []extract.Detector{extract.ChartImg}
				c.Final = func(status int, body []byte) bool {
					return status == 429 && strings.Contains(string(body), "Limit Exceeded")
				}
			})
			resp, err := c.Do(bg, Request{Op: "op", Path: "/x"})
			if envelope.From(err).Code != envelope.RateLimited || resp.Attempts != tt.attempts {
				t.Errorf("err = %v, attempts = %d, want rate_limited after %d", err, resp.Attempts, tt.attempts)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true}, {"0", 0, true}, {" 1.5 ", 1500 * time.Millisecond, true},
		{"Sat, 21 Nov 2026 10:00:30 GMT", 30 * time.Second, true}, {"Sat, 21 Nov 2026 09:00:00 GMT", 0, true},
		{"", 0, false}, {"-1", 0, false}, {"soon", 0, false}, {"NaN", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	for attempt := 1; attempt < 10; attempt++ {
		for i := 0; i < 50; i++ {
			d := backoff(100*time.Millisecond, time.Second, attempt)
			step := min(100*time.Millisecond<<(attempt-1), time.Second)
			if d < step/2 || d > step {
				t.Fatalf("attempt %d: %s outside [%s, %s]", attempt, d, step/2, step)
			}
		}
	}
}
