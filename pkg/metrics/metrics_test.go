package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T) string {
	t.Helper()
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// Gauges registered before and after the first scrape are both exported;
// a second registration for the same server is ignored (no panic).
func TestSeries(t *testing.T) {
	Subscriptions("early", func() float64 { return 3 })
	SandboxRun("ok")
	SandboxRun("timeout")
	Upstream("up", "get_x", 0, time.Millisecond)
	ToolCall("srv", "t", "rate_limited", time.Millisecond)
	body := scrape(t)
	Subscriptions("late", func() float64 { return 5 })
	Subscriptions("late", func() float64 { return 7 })
	body += scrape(t)
	for _, want := range []string{
		`mcpfleet_subscriptions_active{server="early"} 3`,
		`mcpfleet_subscriptions_active{server="late"} 5`,
		`mcpfleet_sandbox_runs_total{outcome="ok"} 1`,
		`mcpfleet_sandbox_runs_total{outcome="timeout"} 1`,
		`mcpfleet_upstream_requests_total{op="get_x",status="error",upstream="up"} 1`,
		`mcpfleet_rate_limit_refusals_total{server="srv",tool="t"} 1`,
		`go_goroutines`,
		`process_resident_memory_bytes`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %s", want)
		}
	}
}
