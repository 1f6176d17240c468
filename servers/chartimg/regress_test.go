package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// Regression tests against the real chart-img's behaviour, not our fake's.

// paidConfig is over BASIC's limits (800x600, 3 studies+drawings) and within PRO's.
var paidConfig = map[string]any{"symbol": "NASDAQ:AAPL", "width": 1280, "height": 720,
	"studies": []any{map[string]any{"name": "Volume"}, map[string]any{"name": "VWAP"}, map[string]any{"name": "MACD"}, map[string]any{"name": "Relative Strength Index"}}}

// With CHART_IMG_PLAN unset, a paid key is not refused locally: chart-img does
// not say which plan a key has, so plan limits are warnings naming CHART_IMG_PLAN.
func TestRegressUnsetPlanDoesNotRefuseAPaidKey(t *testing.T) {
	e := start(t, setup{plan: "-"}) // test-key is PRO in the fake
	v := servetest.Decode[validate.Result](t, e.call(t, "validate_chart_config", map[string]any{"config": paidConfig}))
	if !v.Valid || v.RateLimitCheck.Plan != validate.Unknown || !v.RateLimitCheck.WithinLimits {
		t.Fatalf("%+v", v)
	}
	warned := 0
	for _, is := range v.Errors {
		if is.Severity == "warning" && strings.Contains(is.Message, "CHART_IMG_PLAN") {
			warned++
		}
	}
	if warned != 2 {
		t.Fatalf("want a resolution and a parameter warning naming CHART_IMG_PLAN: %+v", v.Errors)
	}
	img := servetest.Decode[tools.ImageOut](t, e.call(t, "generate_chart_image", map[string]any{"config": paidConfig}))
	if img.Width != 1280 || img.Plan != validate.Unknown || e.fake.Count(fake.RouteChart) != 1 {
		t.Fatalf("%+v (chart requests %d)", img, e.fake.Count(fake.RouteChart))
	}
	// Beyond every plan is still refused locally.
	huge := map[string]any{"symbol": "NASDAQ:AAPL", "width": 4096, "height": 2160}
	if b := servetest.ErrorBody(t, e.call(t, "generate_chart_image", map[string]any{"config": huge})); b.Code != envelope.InvalidArgument {
		t.Fatalf("%+v", b)
	}
}

// A 403 limit answer tells the key's plan: it is learned and checked locally
// from then on, and local refusals name CHART_IMG_PLAN.
func TestRegressPlanLearnedFrom403(t *testing.T) {
	e := start(t, setup{plan: "-", key: "basic-key"})
	b := servetest.ErrorBody(t, e.call(t, "generate_chart_image", map[string]any{"config": paidConfig}))
	if b.Code != envelope.PermissionDenied || !strings.Contains(b.Message, "The key is on the BASIC plan") || !strings.Contains(b.Message, "CHART_IMG_PLAN=BASIC") {
		t.Fatalf("%+v", b)
	}
	v := servetest.Decode[validate.Result](t, e.call(t, "validate_chart_config", map[string]any{"config": paidConfig}))
	if v.Valid || v.RateLimitCheck.Plan != "BASIC" {
		t.Fatalf("%+v", v)
	}
	b = servetest.ErrorBody(t, e.call(t, "generate_chart_image", map[string]any{"config": paidConfig}))
	if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "CHART_IMG_PLAN") || e.fake.Count(fake.RouteChart) != 1 {
		t.Fatalf("%+v (chart requests %d)", b, e.fake.Count(fake.RouteChart))
	}
}

// A configured plan is enforced locally and the refusal names CHART_IMG_PLAN.
func TestRegressConfiguredPlanRefusalNamesTheSetting(t *testing.T) {
	e := start(t, setup{plan: "BASIC"})
	b := servetest.ErrorBody(t, e.call(t, "generate_chart_image", map[string]any{"config": paidConfig}))
	if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "set CHART_IMG_PLAN") || e.fake.Count(fake.RouteChart) != 0 {
		t.Fatalf("%+v", b)
	}
}

// A docs page that no longer parses, on the first fetch (no good copy yet),
// falls back to the embedded snapshot and says so.
func TestRegressDocsParseFailureFallsBackToSnapshot(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetDocs([]byte(`<html><body><div class="content"><h1 id="introduction">Introduction</h1><p>We moved the docs.</p></div></body></html>`))
	d := servetest.Decode[tools.DocsOut](t, e.call(t, "fetch_chart_documentation", map[string]any{"section": "indicators"}))
	if d.Source != "snapshot" || !d.Stale || len(d.Indicators) != 92 || !strings.Contains(d.Note, "structure not recognised") {
		t.Fatalf("source=%s stale=%v indicators=%d note=%q", d.Source, d.Stale, len(d.Indicators), d.Note)
	}
	if e.fake.Count(fake.RouteDocs) != 1 {
		t.Fatalf("docs fetched %d times", e.fake.Count(fake.RouteDocs))
	}
}
