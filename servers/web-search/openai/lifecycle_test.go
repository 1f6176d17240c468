package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatcher: the shutdown date from GET /v1/models/{id} (the model object
// of OpenAI's API reference: id, object, created, owned_by, shutdown_date),
// the warning window, 404 as gone, and a failed check keeping what was known.
func TestWatcher(t *testing.T) {
	var body atomic.Value
	var status atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models/gpt-5-nano" {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(status.Load()))
		_, _ = w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 27, 23, 59, 0, 0, time.UTC)
	c := New(Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1", Model: "gpt-5-nano", MaxAttempts: 1})
	w := NewWatcher(c, func() time.Time { return now })
	ctx := context.Background()
	if l := w.Status(ctx, 0); l.Checked || l.Warning() != "" || l.Replacement != "gpt-6-luna" {
		t.Errorf("before any check: %+v", l)
	}

	status.Store(200)
	body.Store(`{"id":"gpt-5-nano","object":"model","created":1754524800,"owned_by":"system","shutdown_date":"2026-12-11"}`)
	l := w.Check(ctx)
	if !l.Checked || l.ShutdownDate != "2026-12-11" || l.DaysLeft == nil || *l.DaysLeft != 14 ||
		!strings.Contains(l.Warning(), "in 14 days") || !strings.Contains(l.Warning(), "WEB_SEARCH_MODEL=gpt-6-luna") {
		t.Errorf("%+v: %s", l, l.Warning())
	}

	now = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) // 40 days before
	if l := w.Check(ctx); l.Warning() != "" {
		t.Errorf("warned 40 days ahead: %s", l.Warning())
	}

	status.Store(500)
	body.Store(`{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`)
	if l := w.Check(ctx); l.ShutdownDate != "2026-12-11" || l.Err == "" {
		t.Errorf("a failed check should keep the known date: %+v", l)
	}

	status.Store(404)
	body.Store(`{"error":{"message":"The model ` + "`gpt-5-nano`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`)
	if l := w.Check(ctx); !l.Gone || !strings.Contains(l.Warning(), "no longer serves gpt-5-nano") || !strings.Contains(l.Warning(), "gpt-6-luna") {
		t.Errorf("%+v: %s", l, l.Warning())
	}

	status.Store(200)
	body.Store(`{"id":"gpt-5-nano","object":"model","created":1754524800,"owned_by":"system","shutdown_date":null}`)
	if l := w.Check(ctx); l.Gone || l.ShutdownDate != "" || l.DaysLeft != nil || l.Warning() != "" {
		t.Errorf("no shutdown announced: %+v", l)
	}
}

// TestWatcherWithoutKey asks nothing and never blocks a reader.
func TestWatcherWithoutKey(t *testing.T) {
	w := NewWatcher(New(Config{Model: "gpt-5-nano"}), nil)
	w.Start(context.Background(), nil)
	if l := w.Status(context.Background(), time.Hour); l.Checked {
		t.Errorf("%+v", l)
	}
}
