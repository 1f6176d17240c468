package openai

import (
	"context"
	"encoding/json"
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

// FuzzModelInfo: any GET /v1/models/{id} body decodes into a lifecycle
// without panicking, and a warning, when there is one, names the setting.
func FuzzModelInfo(f *testing.F) {
	f.Add([]byte(`{"id":"gpt-5-nano","object":"model","created":1754524800,"owned_by":"system","shutdown_date":"2026-12-11"}`))
	f.Add([]byte(`{"id":"gpt-6-luna","object":"model","shutdown_date":null}`))
	f.Add([]byte(`{"id":"x","shutdown_date":"0001-01-01"}`))
	f.Add([]byte(`{"id":"x","shutdown_date":"9999-12-31"}`))
	f.Add([]byte(`{"id":"x","shutdown_date":"soon"}`))
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte) {
		var m ModelInfo
		if json.Unmarshal(body, &m) != nil {
			return
		}
		l := Lifecycle{Model: "gpt-5-nano", Replacement: ReplacementFor("gpt-5-nano")}
		l.apply(&m, now)
		if w := l.Warning(); w != "" && !strings.Contains(w, EnvModel) {
			t.Fatalf("warning without the setting: %s", w)
		}
		if l.DaysLeft != nil && l.ShutdownDate == "" {
			t.Fatal("days left without a date")
		}
	})
}
