package upstream

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/metrics"
)

func metricsText(t *testing.T) string {
	t.Helper()
	rec := httptest.NewRecorder()
	metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

func metricLine(t *testing.T, prefix string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// Each attempt is counted by upstream, operation and status; the path (which
// may hold ids) and the query (which may hold keys) are no labels, and an
// Op with an id in it counts under its Route, or as "other" when no shape is
// registered for it.
func TestUpstreamMetrics(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	w := drift.NewWatch("t", 0, "")
	w.Register(drift.Shape{Route: "get_thing"}, drift.Shape{Route: "get op"})
	c := testClient(f.URL, &syncBuffer{}, func(cfg *Config) { cfg.Name = "metricsup"; cfg.Drift = w })
	_, _ = c.Do(context.Background(), Request{Op: "get_thing", Path: "/things/secret-id-123?key=canary"})
	_, _ = c.Do(context.Background(), Request{Op: "get status of op_made_up_1", Route: "get op", Path: "/ops/op_made_up_1"})
	_, _ = c.Do(context.Background(), Request{Op: "load model made_up_2", Path: "/models/made_up_2"})
	if line := metricLine(t, `mcpfleet_upstream_requests_total{op="get op",status="404",upstream="metricsup"}`); !strings.HasSuffix(line, " 1") {
		t.Fatalf("route series %q", line)
	}
	if line := metricLine(t, `mcpfleet_upstream_requests_total{op="other",status="404",upstream="metricsup"}`); !strings.HasSuffix(line, " 1") {
		t.Fatalf("unregistered series %q", line)
	}
	if rec := metricsText(t); strings.Contains(rec, "made_up") {
		t.Fatalf("an id reached a label:\n%s", rec)
	}
	line := metricLine(t, `mcpfleet_upstream_requests_total{op="get_thing",status="404",upstream="metricsup"}`)
	if !strings.HasSuffix(line, " 1") {
		t.Fatalf("series %q", line)
	}
	if got := metricLine(t, `mcpfleet_upstream_request_duration_seconds_count{op="get_thing",upstream="metricsup"}`); !strings.HasSuffix(got, " 1") {
		t.Fatalf("histogram %q", got)
	}
	if strings.Contains(metricLine(t, "mcpfleet_upstream"), "secret-id") {
		t.Fatal("a path reached a label")
	}
}
