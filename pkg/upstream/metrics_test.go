package upstream

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/metrics"
)

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
// may hold ids) and the query (which may hold keys) are no labels.
func TestUpstreamMetrics(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	c := testClient(f.URL, &syncBuffer{}, func(cfg *Config) { cfg.Name = "metricsup" })
	_, _ = c.Do(context.Background(), Request{Op: "get_thing", Path: "/things/secret-id-123?key=canary"})
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
