package upstream

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// TestDriftWatchSeesEveryAnswer: the client reports each answer to its
// watch under Route (else Op), error answers included, and its Sender
// refuses writes before anything is sent.
func TestDriftWatchSeesEveryAnswer(t *testing.T) {
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent = append(sent, r.Method+" "+r.URL.Path)
		w.Header().Set("Sunset", "Fri, 01 Jan 2027 00:00:00 GMT")
		if r.URL.Path == "/bad" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"oops":true}`))
			return
		}
		_, _ = w.Write([]byte(`{"items":[{"state":"new"}]}`))
	}))
	defer srv.Close()
	var logs bytes.Buffer
	w := drift.NewWatch("t", 0, "")
	w.Register(drift.Shape{Route: "list", Fields: []drift.Field{drift.Req("items[].state", drift.String).OneOf("open")},
		Error: []drift.Field{drift.Req("error", drift.String)}})
	c := New(Config{Name: "Up", BaseURL: srv.URL, Retries: -1, Drift: w, Logger: zerolog.New(&logs)})
	if _, err := c.Do(context.Background(), Request{Op: "list items of x", Route: "list", Path: "/items"}); err != nil {
		t.Fatal(err)
	}
	_, _ = c.Do(context.Background(), Request{Op: "list", Path: "/bad"})
	kinds := map[string]bool{}
	for _, s := range w.Signals() {
		if s.Route != "list" || s.Upstream != "Up" {
			t.Errorf("signal %+v", s)
		}
		kinds[s.Kind] = true
	}
	if !kinds[drift.Deprecated] || !kinds[drift.NewEnum] || !kinds[drift.ErrorBody] || len(kinds) != 3 {
		t.Fatalf("kinds %v", kinds)
	}
	if !strings.Contains(logs.String(), `"level":"warn"`) {
		t.Fatalf("no warn line:\n%s", logs.String())
	}
	before := len(sent)
	for _, m := range []string{"DELETE", "PUT", "PATCH"} {
		if _, err := c.Sender()(context.Background(), drift.Call{Route: "list", Method: m, Path: "/items"}); err == nil {
			t.Errorf("%s was sent", m)
		}
	}
	if len(sent) != before {
		t.Fatalf("a write reached the upstream: %v", sent[before:])
	}
	r, err := c.Sender()(context.Background(), drift.Call{Route: "list", Method: "GET", Path: "/bad"})
	if err == nil || r.Status != 400 || !strings.Contains(string(r.Body), "oops") {
		t.Fatalf("an error answer is handed back whole: %+v %v", r, err)
	}
}
