package fakeupstream

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

type fault struct {
	Route string `json:"route"`
	Count int    `json:"count"`
}

func TestQueueOrderUsesAndMatch(t *testing.T) {
	var q Queue[fault]
	q.Add(fault{Route: "a"}, 2)
	q.Add(fault{Route: "b"}, 0)
	onRoute := func(r string) func(*fault) bool { return func(f *fault) bool { return f.Route == r } }
	steps := []struct {
		route  string
		wantOK bool
		left   int
	}{
		{"a", true, 2}, {"a", true, 1}, {"a", false, 1}, // a: used twice, then gone
		{"b", true, 1}, {"b", true, 1}, // b: until cleared
		{"c", false, 1},
	}
	for i, s := range steps {
		f, ok := q.Take(onRoute(s.route))
		if ok != s.wantOK || ok && f.Route != s.route {
			t.Fatalf("step %d: Take(%s) = %+v, %v", i, s.route, f, ok)
		}
		if q.Len() != s.left {
			t.Fatalf("step %d: %d faults left, want %d", i, q.Len(), s.left)
		}
	}
	if f, ok := q.Take(nil); !ok || f.Route != "b" {
		t.Fatalf("Take(nil) = %+v, %v; want the first fault", f, ok)
	}
	q.SetLatency(time.Second)
	if q.Latency() != time.Second {
		t.Fatal("latency not kept")
	}
	q.Clear()
	if _, ok := q.Take(nil); ok || q.Len() != 0 || q.Latency() != 0 {
		t.Fatal("a cleared queue still applies a fault or a latency")
	}
}

func TestQueueConcurrentUsesAreExact(t *testing.T) {
	var q Queue[fault]
	q.Add(fault{Route: "x"}, 50)
	var wg sync.WaitGroup
	var mu sync.Mutex
	hits := 0
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok := q.Take(nil); ok {
				mu.Lock()
				hits++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if hits != 50 {
		t.Fatalf("a fault with 50 uses applied %d times", hits)
	}
}

func TestDecodeFaults(t *testing.T) {
	cases := []struct {
		body    string
		want    int
		wantErr bool
	}{
		{`{"route":"a","count":1}`, 1, false},
		{`[{"route":"a"},{"route":"b"}]`, 2, false},
		{`[]`, 0, false},
		{`{"route":`, 0, true},
		{`"text"`, 0, true},
	}
	for _, c := range cases {
		got, err := DecodeFaults[fault](strings.NewReader(c.body))
		if (err != nil) != c.wantErr || len(got) != c.want {
			t.Errorf("DecodeFaults(%s) = %v, %v", c.body, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "fault object or a list") {
			t.Errorf("error %q does not say what is wanted", err)
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:0": true, "localhost:8080": true, "[::1]:1": true, "127.1.2.3:9": true,
		"0.0.0.0:80": false, ":80": false, "10.0.0.1:80": false, "example.com:80": false, "nonsense": false,
	} {
		if err := CheckLoopback(addr); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok=%v", addr, err, ok)
		}
	}
}

func TestListenServesAndResets(t *testing.T) {
	if _, _, err := Listen("0.0.0.0:0", http.NotFoundHandler()); err == nil {
		t.Fatal("Listen accepted a non-loopback address")
	}
	base, stop, err := Listen("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/reset" {
			Reset(w)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Fatalf("body %q", b)
	}
	if resp, err := http.Get(base + "/reset"); err == nil {
		resp.Body.Close()
		t.Fatal("a reset connection produced an answer")
	}
}

func FuzzDecodeFaults(f *testing.F) {
	f.Add(`{"route":"a","count":1}`)
	f.Add(`[{"route":"a"}]`)
	f.Fuzz(func(t *testing.T, body string) {
		list, err := DecodeFaults[fault](strings.NewReader(body))
		if err == nil && list == nil && strings.TrimSpace(body) != "null" {
			// a decoded body is a list (possibly empty), never nil unless JSON null
			t.Fatalf("nil list without error for %q", body)
		}
	})
}

func TestQueueReplaceAndRemove(t *testing.T) {
	var q Queue[fault]
	onRoute := func(r string) func(*fault) bool { return func(f *fault) bool { return f.Route == r } }
	q.SetLatency(time.Second)
	q.Add(fault{Route: "a", Count: 1}, 0)
	q.Add(fault{Route: "b"}, 0)
	q.Replace(onRoute("a"), fault{Route: "a", Count: 2}, 1) // one fault per route: a's is swapped
	if got := q.Faults(); len(got) != 2 || got[0].Route != "b" || got[1] != (fault{Route: "a", Count: 2}) {
		t.Fatalf("after Replace(a): %+v", got)
	}
	q.Remove(onRoute("b"))
	if got := q.Faults(); len(got) != 1 || got[0].Route != "a" {
		t.Fatalf("after Remove(b): %+v", got)
	}
	q.Replace(nil, fault{Route: "c"}, 0) // nil: the whole queue
	if got := q.Faults(); len(got) != 1 || got[0].Route != "c" || q.Latency() != time.Second {
		t.Fatalf("after Replace(nil): %+v, latency %v", got, q.Latency())
	}
	q.Remove(nil)
	if q.Len() != 0 || q.Latency() != time.Second {
		t.Fatal("Remove(nil) left a fault or dropped the latency")
	}
}

func TestServeFaults(t *testing.T) {
	var q Queue[fault]
	check := func(f fault) error {
		if f.Route == "bad" {
			return errors.New("unknown route bad")
		}
		return nil
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ServeFaults(w, r, &q, check, func(f fault) { q.Add(f, f.Count) })
	})
	steps := []struct {
		method, body string
		status       int
		queued       int
		contains     string
	}{
		{"POST", `{"route":"a","count":1}`, 200, 1, `{"faults":[{"route":"a","count":1}]}`},
		{"POST", `[{"route":"b"},{"route":"c"}]`, 200, 3, `"route":"c"`},
		{"POST", `[{"route":"d"},{"route":"bad"}]`, 400, 3, "unknown route bad"}, // nothing of a refused list is queued
		{"POST", `{"route":`, 400, 3, "fault object or a list"},
		{"GET", "", 200, 3, `"route":"b"`},
		{"PUT", "", 405, 3, "DELETE"},
		{"DELETE", "", 200, 0, `{"faults":[]}`},
	}
	for i, s := range steps {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(s.method, "/_fake/faults", strings.NewReader(s.body)))
		if rec.Code != s.status || q.Len() != s.queued || !strings.Contains(rec.Body.String(), s.contains) {
			t.Errorf("step %d %s %s: %d %s, %d queued; want %d, %d, %q", i, s.method, s.body, rec.Code, rec.Body, q.Len(), s.status, s.queued, s.contains)
		}
	}
}
