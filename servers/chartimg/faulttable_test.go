package main

import (
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// TestFaultTable runs every chartimg read tool against a chart-img that
// fails, cuts or empties its answers or refuses in its documented shapes:
// each answers an error or says its result is not whole.
func TestFaultTable(t *testing.T) {
	t.Setenv("CHART_IMG_API_KEY", "test-key")
	f := fake.New(fake.Options{Keys: map[string]string{"test-key": "PRO"}, NoRateLimit: true})
	base, stop := f.Start()
	t.Cleanup(stop)
	connect := func(t testing.TB, base string) *servetest.Conn {
		cfg := &tools.Config{Retries: -1, RetryWait: 20 * time.Millisecond, NoLimiter: true}
		return servetest.New(t, app(cfg), "--api-url", base, "--docs-url", base+"/", "--plan", "PRO")
	}
	servetest.FaultTable{
		Upstream: base,
		Connect:  connect,
		Exempt: map[string]string{
			"construct_chart_config": "reads the request's text against the compiled docs tables",
			"validate_chart_config":  "checks a config against the compiled docs tables",
		},
		Rows: []servetest.FaultRow{
			// A failed refresh serves the embedded snapshot and says so (stale, with the reason in note).
			{Tool: "fetch_chart_documentation", Single: true, FailedWhen: `"stale":true`, Args: map[string]any{"section": "indicators", "forceRefresh": true}},
			{Tool: "get_exchanges"},
			{Tool: "get_symbols", Args: map[string]any{"exchange": "NASDAQ", "limit": 5}},
		},
		// The documented error bodies (doc.chart-img.com › Errors, as copied in
		// johnpaul-aquino/charttalk .docs/chart-img-raw-documentation).
		Refusals: []servetest.Refusal{
			{Name: "403 Forbidden", Status: 403, ContentType: "application/json", Body: `{"message":"Forbidden"}`, Source: "doc.chart-img.com › Errors"},
			{Name: "429 Limit Exceeded", Status: 429, ContentType: "application/json", Body: `{"message":"Limit Exceeded"}`, Source: "doc.chart-img.com › Errors"},
			{Name: "500", Status: 500, ContentType: "application/json", Body: `{"message":"Internal Server Error"}`, Source: "doc.chart-img.com › Errors"},
		},
	}.Run(t)
}
