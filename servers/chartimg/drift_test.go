package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// driftCases: each way the fake drifts, shown on an exchange's symbols.
var driftCases = []struct {
	name     string
	drift    fakeupstream.Drift
	status   string
	kind     string
	exchange string // a different one per case: the tool caches symbol lists
}{
	{"deprecation headers", fakeupstream.Drift{Deprecate: true}, drift.StatusDepr, drift.Deprecated, "BINANCE"},
	{"renamed field", fakeupstream.Drift{RenameFrom: "symbol", RenameTo: "ticker"}, drift.StatusDrift, drift.Missing, "COINBASE"},
	{"new enum value", fakeupstream.Drift{EnumField: "type", EnumValue: "tokenized-stock"}, drift.StatusDrift, drift.NewEnum, "KRAKEN"},
	{"new error body", fakeupstream.Drift{ErrorBody: true}, drift.StatusDrift, drift.ErrorBody, "NYSE"},
}

func probeChartimg(t *testing.T, paid bool) []drift.Result {
	t.Helper()
	probes, shapes, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return drift.Run(context.Background(), probes, shapes, drift.Options{IncludePaid: paid})
}

// TestProbeSeesEachDrift: against the fake every route probes ok (the
// render only with --include-paid), each drift shows on the symbols route,
// and the probe never stores a chart.
func TestProbeSeesEachDrift(t *testing.T) {
	f := fake.New(fake.Options{Keys: map[string]string{"test-key": "PRO"}, NoRateLimit: true})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv(client.EnvAPIURL, base)
	t.Setenv(client.EnvDocsURL, base+"/")
	t.Setenv(client.EnvAPIKey, "test-key")
	for _, r := range probeChartimg(t, true) {
		if r.Status != drift.OK {
			t.Errorf("undrifted: %s %s %s %v %s", r.Route, r.Path, r.Status, r.Findings, r.Error)
		}
	}
	if r := servetest.ResultFor(probeChartimg(t, false), "render chart"); r.Status != drift.StatusSkip {
		t.Errorf("a render ran without --include-paid: %+v", r)
	}
	for _, c := range driftCases {
		f.Drift().Set(c.drift)
		route := "list symbols"
		if c.drift.ErrorBody {
			route = "list exchanges" // the symbols probe needs its answer: skipped
		}
		r := servetest.ResultFor(probeChartimg(t, false), route)
		found := false
		for _, fd := range r.Findings {
			found = found || fd.Kind == c.kind
		}
		if r.Status != c.status || !found {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	for k := range f.Drift().Seen() {
		if !strings.HasPrefix(k, "GET ") && k != "POST /v2/tradingview/advanced-chart" {
			t.Errorf("the probe sent %s", k)
		}
	}
}

// TestRunTimeWatchSeesEachDrift: get_symbols notices the same drift and
// logs each kind once.
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	servetest.WatchEveryAnswer(t)
	e := start(t, setup{})
	for _, c := range driftCases {
		e.fake.Drift().Set(c.drift)
		e.call(t, "get_symbols", map[string]any{"exchange": c.exchange, "limit": 3})
		e.call(t, "get_symbols", map[string]any{"exchange": c.exchange, "limit": 4})
		if n := strings.Count(e.conn.Logs(), `"route":"list symbols","drift":"`+c.kind+`"`); n != 1 {
			t.Errorf("%s: %d warn lines\n", c.name, n)
		}
	}
}
