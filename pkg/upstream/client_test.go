package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

func TestDetectorsMapBodies(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		noDetect bool
		want     errWant
		attempts int
	}{
		{"success", 200, `{"success":true,"data":{}}`, false, errWant{}, 1},
		{"error inside 200", 200, `{"success":false,"error":{"code":"DATA_NOT_FOUND","message":"No data for AAPL"}}`, false,
			errWant{envelope.NotFound, false, "ktrdr get_data: No data for AAPL"}, 1},
		{"NoDetect skips 2xx", 200, `{"success":false,"error":"x"}`, true, errWant{}, 1},
		{"NoDetect still maps errors", 404, `{"detail":"Operation not found: op_1"}`, true,
			errWant{envelope.NotFound, false, "ktrdr get_data: Operation not found: op_1"}, 1},
		{"fastapi 400 conflict text", 400, `{"detail":"Operation op_1 cannot be cancelled (status: completed)"}`, false,
			errWant{envelope.Conflict, false, "cannot be cancelled"}, 1},
		{"fastapi 422", 422, `{"detail":[{"loc":["body","mode"],"msg":"bad mode","type":"literal_error"}]}`, false,
			errWant{envelope.InvalidArgument, false, "body.mode: bad mode"}, 1},
		{"503 detail retried then reported", 503, `{"detail":"No training workers available"}`, false,
			errWant{envelope.UpstreamUnavailable, true, "No training workers available"}, 3},
		{"plain 401", 401, ``, false, errWant{envelope.Unauthenticated, false, "ktrdr answered 401 Unauthorized to get_data; check the credentials"}, 1},
		{"plain 403", 403, `nope`, false, errWant{envelope.PermissionDenied, false, "403"}, 1},
		{"plain 409", 409, ``, false, errWant{envelope.Conflict, false, "409"}, 1},
		{"plain 400", 400, ``, false, errWant{envelope.InvalidArgument, false, "check the arguments"}, 1},
		{"plain 418", 418, ``, false, errWant{envelope.UpstreamError, false, "418"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			c := testClient(f.URL, nil, func(c *Config) {
				c.Detectors = []extract.Detector{extract.SuccessFalse, extract.FastAPI}
			})
			resp, err := c.Do(bg, Request{Op: "get_data", Path: "/d", NoDetect: tt.noDetect})
			e := checkErr(t, err, tt.want)
			if resp.Attempts != tt.attempts {
				t.Errorf("attempts = %d, want %d", resp.Attempts, tt.attempts)
			}
			if resp.Status != tt.status {
				t.Errorf("status = %d", resp.Status)
			}
			if e != nil && tt.status >= 300 && e.Details["http_status"] != tt.status {
				t.Errorf("details = %v", e.Details)
			}
		})
	}
}

func TestSecretsNeverLeak(t *testing.T) {
	const (
		headerKey = "hdr-CANARY-7f3a9c"
		bearer    = "bearer-CANARY-55aa11"
		queryKey  = "query-CANARY-1b2c3d"
		formKey   = "form-CANARY-998877"
	)
	var gotKey, gotAuth atomic.Value
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		gotKey.Store(r.Header.Get("X-Api-Key"))
		if a := r.Header.Get("Authorization"); a != "" {
			gotAuth.Store(a)
		}
		_ = r.ParseForm()
		w.WriteHeader(401)
		// A careless upstream echoes what it was sent.
		fmt.Fprintf(w, `{"message":"Invalid key %s / %s / %s / %s"}`, r.Header.Get("X-Api-Key"),
			r.Header.Get("Authorization"), r.URL.Query().Get("apiKey"), r.Form.Get("jKey"))
	})
	logs := &syncBuffer{}
	c := testClient(f.URL, logs, func(c *Config) {
		c.SecretHeaders = map[string]string{"X-API-KEY": headerKey}
		c.Detectors = []extract.Detector{extract.ChartImg}
	})
	var errs []string
	for _, r := range []Request{
		{Op: "chart", Path: "/c", Query: url.Values{"apiKey": {queryKey}, "symbol": {"NSE:INFY"}},
			Headers: map[string]string{"Authorization": "Bearer " + bearer}},
		{Op: "login", Method: "POST", Path: "/QuickAuth?jKey=" + formKey, Form: url.Values{"jData": {"{}"}, "jKey": {formKey}}},
	} {
		_, err := c.Do(bg, r)
		if err == nil {
			t.Fatal("expected an error")
		}
		e := envelope.From(err)
		b, _ := json.Marshal(e.Body())
		errs = append(errs, err.Error(), string(b))
	}
	// Transport failures carry the URL in Go's errors: make sure it is stripped.
	dead := testClient(closedURL(t), logs, func(c *Config) { c.SecretHeaders = map[string]string{"X-API-KEY": headerKey} })
	_, err := dead.Do(bg, Request{Op: "quotes", Path: "/q", Query: url.Values{"token": {queryKey}}})
	errs = append(errs, err.Error())
	_, err = dead.Do(bg, Request{Op: "quotes", Path: "/q?token=" + queryKey})
	errs = append(errs, err.Error())

	if gotKey.Load() != headerKey || gotAuth.Load() != "Bearer "+bearer {
		t.Fatalf("secret headers were not sent: %v %v", gotKey.Load(), gotAuth.Load())
	}
	haystacks := append(errs, logs.String())
	for _, h := range haystacks {
		for _, canary := range []string{headerKey, bearer, queryKey, formKey, "CANARY"} {
			if strings.Contains(h, canary) {
				t.Errorf("secret %q leaked into %q", canary, h)
			}
		}
	}
	if !strings.Contains(logs.String(), `"query":"apiKey=[REDACTED]&symbol=NSE%3AINFY"`) {
		t.Errorf("expected redacted query in logs:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"path":"/QuickAuth?jKey=[REDACTED]"`) {
		t.Errorf("expected redacted path in logs:\n%s", logs.String())
	}
}

func TestLogsOneLinePerAttempt(t *testing.T) {
	f := newFake(t, burst(503, 2))
	logs := &syncBuffer{}
	c := testClient(f.URL, logs, nil)
	if _, err := c.Do(bg, Request{Op: "list", Path: "/ops"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d log lines, want 3:\n%s", len(lines), logs.String())
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m["level"] != "debug" || m["attempt"] != float64(i+1) || m["method"] != "GET" || m["path"] != "/ops" || m["upstream"] != "ktrdr" {
			t.Errorf("line %d = %s", i, l)
		}
		if strings.Contains(l, "busy") {
			t.Errorf("a body reached the log: %s", l)
		}
	}
}

func TestRequestEncoding(t *testing.T) {
	type seen struct {
		method, path, query, ctype, accept, ua, custom, body string
	}
	var last atomic.Value
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		last.Store(seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Accept"),
			r.Header.Get("User-Agent"), r.Header.Get("X-Custom"), string(b)})
		fmt.Fprint(w, `{"task_id":"op_training_1","n":"5"}`)
	})
	c := testClient(f.URL+"/api/v1/", nil, func(c *Config) { c.Headers = map[string]string{"X-Custom": "yes"} })

	var out struct {
		TaskID string      `json:"task_id"`
		N      extract.Num `json:"n"`
	}
	if err := c.PostJSON(bg, "start_training", "/trainings/start", map[string]any{"symbols": []string{"AAPL"}}, &out); err != nil {
		t.Fatal(err)
	}
	s := last.Load().(seen)
	if s.method != "POST" || s.path != "/api/v1/trainings/start" || s.ctype != "application/json" || s.body != `{"symbols":["AAPL"]}` ||
		s.ua != "mcpfleet-ktrdr" || s.custom != "yes" || out.TaskID != "op_training_1" || out.N != 5 {
		t.Errorf("seen %+v, out %+v", s, out)
	}
	if err := c.GetJSON(bg, "list", "/operations", url.Values{"limit": {"10"}, "status": {"running"}}, nil); err != nil {
		t.Fatal(err)
	}
	s = last.Load().(seen)
	if s.method != "GET" || s.query != "limit=10&status=running" || !strings.Contains(s.accept, "application/json") {
		t.Errorf("seen %+v", s)
	}
	if _, err := c.Do(bg, Request{Method: "post", Path: "/NorenWClientTP/QuickAuth", Form: url.Values{"jData": {`{"uid":"U"}`}}}); err != nil {
		t.Fatal(err)
	}
	s = last.Load().(seen)
	if s.ctype != "application/x-www-form-urlencoded" || s.body != "jData=%7B%22uid%22%3A%22U%22%7D" {
		t.Errorf("seen %+v", s)
	}
	if _, err := c.Do(bg, Request{Method: "PUT", Path: "/raw", RawBody: []byte("abc"), ContentType: "text/plain",
		Headers: map[string]string{"X-Custom": "override"}}); err != nil {
		t.Fatal(err)
	}
	s = last.Load().(seen)
	if s.method != "PUT" || s.ctype != "text/plain" || s.body != "abc" || s.custom != "override" {
		t.Errorf("seen %+v", s)
	}
}

func TestGetJSONMalformed(t *testing.T) {
	f := newFake(t, malformed)
	c := testClient(f.URL, nil, nil)
	var out map[string]any
	err := c.GetJSON(bg, "orders", "/o", nil, &out)
	checkErr(t, err, errWant{envelope.UpstreamError, false, "ktrdr orders: the upstream's answer is not valid JSON"})
	f2 := newFake(t, html502)
	_, err = testClient(f2.URL, nil, func(c *Config) { c.Retries = -1 }).Do(bg, Request{Op: "orders", Path: "/o"})
	checkErr(t, err, errWant{envelope.UpstreamUnavailable, true, "502"})
	f3 := newFake(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"data":{"x":1}}`) })
	var list []int
	err = testClient(f3.URL, nil, nil).GetJSON(bg, "orders", "/o", nil, &list)
	checkErr(t, err, errWant{envelope.UpstreamError, false, "the top level is a JSON object where a list was expected"})
}

func TestUnencodableJSON(t *testing.T) {
	c := testClient("http://127.0.0.1:1", nil, nil)
	_, err := c.Do(bg, Request{Op: "x", Method: "POST", JSON: map[string]any{"f": func() {}}})
	checkErr(t, err, errWant{envelope.Internal, false, "could not be encoded"})
}

func TestLimiter(t *testing.T) {
	f := newFake(t, burst(503, 1))
	var calls atomic.Int64
	c := testClient(f.URL, nil, func(c *Config) {
		c.Limiter = func(ctx context.Context) error { calls.Add(1); return nil }
	})
	resp, err := c.Do(bg, Request{Op: "q", Path: "/q"})
	if err != nil || resp.Attempts != 2 || calls.Load() != 2 {
		t.Fatalf("err %v attempts %d limiter calls %d", err, resp.Attempts, calls.Load())
	}
	deny := testClient(f.URL, nil, func(c *Config) {
		c.Limiter = func(ctx context.Context) error { return errors.New("bucket empty") }
	})
	_, err = deny.Do(bg, Request{Op: "q", Path: "/q"})
	checkErr(t, err, errWant{envelope.RateLimited, true, "client-side rate limit"})
	typed := testClient(f.URL, nil, func(c *Config) {
		c.Limiter = func(ctx context.Context) error {
			return envelope.New(envelope.RateLimited, "20 requests per second").WithRetryAfter(time.Second)
		}
	})
	_, err = typed.Do(bg, Request{Op: "q", Path: "/q"})
	checkErr(t, err, errWant{envelope.RateLimited, true, "20 requests per second"})
	slow := testClient(f.URL, nil, func(c *Config) {
		c.Timeout = 200 * time.Millisecond
		c.Limiter = func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	})
	start := time.Now()
	_, err = slow.Do(bg, Request{Op: "q", Path: "/q"})
	checkErr(t, err, errWant{envelope.Timeout, true, "did not answer"})
	if time.Since(start) > 700*time.Millisecond {
		t.Error("limiter wait ran past the deadline")
	}
}

func TestRedirects(t *testing.T) {
	other := newFake(t, ok200)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/strategies":
			http.Redirect(w, r, "/strategies/", http.StatusTemporaryRedirect) // FastAPI's slash redirect
		case "/strategies/":
			ok200(w, r)
		default:
			http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
		}
	})
	c := testClient(f.URL, nil, func(c *Config) { c.SecretHeaders = map[string]string{"X-Api-Key": "k-123456"} })
	if _, err := c.Do(bg, Request{Op: "s", Path: "/strategies"}); err != nil {
		t.Fatalf("same-host redirect: %v", err)
	}
	_, err := c.Do(bg, Request{Op: "s", Path: "/elsewhere"})
	checkErr(t, err, errWant{envelope.UpstreamError, false, "redirect to another host refused"})
	if other.hits.Load() != 0 {
		t.Error("the request (and its key) followed a redirect to another host")
	}
}

// CrossHostRedirect classifies a redirect to another host without following
// it; a nil answer keeps the generic refusal.
func TestCrossHostRedirectHook(t *testing.T) {
	other := newFake(t, ok200)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	})
	var gotStatus int
	var gotRetry, gotPath string
	c := testClient(f.URL, nil, func(c *Config) {
		c.SecretHeaders = map[string]string{"X-Api-Key": "k-123456"}
		c.CrossHostRedirect = func(resp *http.Response, to *url.URL) *envelope.Error {
			gotStatus, gotRetry, gotPath = resp.StatusCode, resp.Header.Get("Retry-After"), to.Path
			if to.Path == "/block" {
				return envelope.New(envelope.RateLimited, "blocked (k-123456)").WithRetryAfter(7 * time.Second)
			}
			return nil
		}
	})
	resp, err := c.Do(bg, Request{Op: "s", Path: "/block"})
	checkErr(t, err, errWant{envelope.RateLimited, true, "blocked"})
	if e := err.(*envelope.Error); e.RetryAfter != 7*time.Second || strings.Contains(e.Message, "k-123456") {
		t.Errorf("classified error %+v", e)
	}
	if gotStatus != http.StatusFound || gotRetry != "7" || gotPath != "/block" || resp.Attempts != 1 {
		t.Errorf("hook saw %d %q %q; %d attempts", gotStatus, gotRetry, gotPath, resp.Attempts)
	}
	_, err = c.Do(bg, Request{Op: "s", Path: "/elsewhere"})
	checkErr(t, err, errWant{envelope.UpstreamError, false, "redirect to another host refused"})
	if other.hits.Load() != 0 {
		t.Error("a cross-host redirect was followed")
	}
}

func TestCallerContext(t *testing.T) {
	f := newFake(t, hang)
	c := testClient(f.URL, nil, func(c *Config) { c.Timeout = 10 * time.Second })

	// The caller's shorter deadline wins and is the one reported.
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Do(ctx, Request{Op: "q", Path: "/q"})
	checkErr(t, err, errWant{envelope.Timeout, true, "within 300ms"})
	if time.Since(start) > 800*time.Millisecond {
		t.Error("ran past the caller's deadline")
	}

	// Cancellation: a GET is a retryable timeout, a sent POST is outcome_unknown.
	for _, m := range []struct {
		method string
		want   errWant
	}{
		{"GET", errWant{envelope.Timeout, true, "cancelled"}},
		{"POST", errWant{envelope.OutcomeUnknown, false, "cancelled"}},
	} {
		ctx, cancel := context.WithCancel(bg)
		time.AfterFunc(150*time.Millisecond, cancel)
		_, err = c.Do(ctx, Request{Op: "q", Method: m.method, Path: "/q"})
		checkErr(t, err, m.want)
		cancel()
	}
}

func TestRetryStaysInsideDeadline(t *testing.T) {
	f := newFake(t, burst(503, 100))
	c := testClient(f.URL, nil, func(c *Config) {
		c.Timeout = 300 * time.Millisecond
		c.Retries = 50
		c.RetryWait = 100 * time.Millisecond
		c.RetryMaxWait = time.Second
	})
	start := time.Now()
	resp, err := c.Do(bg, Request{Op: "q", Path: "/q"})
	checkErr(t, err, errWant{envelope.UpstreamUnavailable, true, "503 Service Unavailable"})
	if el := time.Since(start); el > 300*time.Millisecond+200*time.Millisecond {
		t.Errorf("took %s", el)
	}
	if resp.Attempts < 2 || resp.Attempts > 4 {
		t.Errorf("attempts = %d", resp.Attempts)
	}
}

func TestConcurrentUse(t *testing.T) {
	f := newFake(t, ok200)
	c := testClient(f.URL, nil, nil)
	errs := make(chan error, 32)
	for i := 0; i < 32; i++ {
		go func() {
			var out struct{ Data []int }
			errs <- c.GetJSON(bg, "q", "/q", nil, &out)
		}()
	}
	for i := 0; i < 32; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pw@host:8/api?key=1#f": "http://host:8/api",
		"http://127.0.0.1:8000/api/v1":      "http://127.0.0.1:8000/api/v1",
		"not a url?token=x":                 "not a url",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAbsolutePaths(t *testing.T) {
	f := newFake(t, ok200)
	other := newFake(t, ok200)
	c := testClient(f.URL+"/api", nil, func(c *Config) { c.SecretHeaders = map[string]string{"X-Api-Key": "k-123456"} })
	if _, err := c.Do(bg, Request{Op: "s", Path: f.URL + "/abs"}); err != nil {
		t.Fatalf("same host absolute path: %v", err)
	}
	if _, err := c.Do(bg, Request{Op: "s", Path: "/fetch?next=http://elsewhere/x"}); err != nil {
		t.Fatalf("relative path with a URL in the query: %v", err)
	}
	_, err := c.Do(bg, Request{Op: "s", Path: other.URL + "/x"})
	checkErr(t, err, errWant{envelope.Internal, false, "refusing to send"})
	if other.hits.Load() != 0 {
		t.Error("request sent to another host")
	}
}

func TestDecodeNoContent(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/204" {
			w.WriteHeader(204)
		}
	})
	c := testClient(f.URL, nil, nil)
	var out map[string]any
	if err := c.GetJSON(bg, "del", "/204", nil, &out); err != nil {
		t.Fatalf("204: %v", err)
	}
	err := c.GetJSON(bg, "get", "/empty", nil, &out)
	checkErr(t, err, errWant{envelope.UpstreamError, false, "ktrdr get: the upstream's answer is empty"})
	resp, err := c.Do(bg, Request{Op: "raw", Path: "/empty"})
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	if err := c.Decode("raw", resp, &raw); err != nil || len(raw) != 0 {
		t.Fatalf("raw decode: %v", err)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"2", "1.5", "-1", "Sat, 21 Nov 2026 10:00:30 GMT", "", "1e309", "NaN", "Monday"} {
		f.Add(s)
	}
	now := time.Now()
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %s, %v", v, d, ok)
		}
	})
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{"/x?token=abc&b=1", "/x?%zz", "/plain", "http://u:p@h/x?key=1", "/a?jKey=1&jKey=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		out := redactPath(p)
		if _, rawOut, ok := strings.Cut(out, "?"); ok {
			if rawOut == redacted {
				return
			}
			q, err := url.ParseQuery(rawOut)
			if err != nil {
				t.Fatalf("redactPath(%q) = %q: unparseable query", p, out)
			}
			for k, vs := range q {
				for _, v := range vs {
					if secretName(k) && v != redacted {
						t.Fatalf("redactPath(%q) = %q keeps %s=%q", p, out, k, v)
					}
				}
			}
		}
		if u := redactURL(p); strings.Contains(u, "?") && strings.Contains(p, "://") {
			t.Fatalf("redactURL(%q) = %q keeps a query", p, u)
		}
	})
}

func BenchmarkDoGetJSON(b *testing.B) {
	f := httptestServer(b)
	c := New(Config{Name: "bench", BaseURL: f})
	b.ReportAllocs()
	for b.Loop() {
		var out struct{ Data []int }
		if err := c.GetJSON(bg, "q", "/q", nil, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// A retry that runs out of time reports the answer the upstream gave before it
// (a 5xx the user can act on), not the deadline of the retry.
func TestRetryOutOfTimeReportsTheRealFailure(t *testing.T) {
	var n atomic.Int64
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"detail":"boom"}`)
			return
		}
		select { // the retry hangs past the deadline
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	})
	c := testClient(f.URL, nil, func(c *Config) { c.Timeout = 300 * time.Millisecond })
	_, err := c.Do(bg, Request{Op: "q", Path: "/q"})
	e := checkErr(t, err, errWant{envelope.UpstreamError, true, "500"})
	if e.Code == envelope.Timeout {
		t.Fatalf("got a timeout: %v", e)
	}
}
