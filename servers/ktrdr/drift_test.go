package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// driftCases: each way the fake drifts, shown on GET /operations.
var driftCases = []struct {
	name   string
	drift  fakeupstream.Drift
	status string
	kind   string
}{
	{"deprecation headers", fakeupstream.Drift{Deprecate: true}, drift.StatusDepr, drift.Deprecated},
	{"renamed field", fakeupstream.Drift{RenameFrom: "operation_id", RenameTo: "id"}, drift.StatusDrift, drift.Missing},
	{"new enum value", fakeupstream.Drift{EnumField: "status", EnumValue: "paused"}, drift.StatusDrift, drift.NewEnum},
	{"new error body", fakeupstream.Drift{ErrorBody: true}, drift.StatusDrift, drift.ErrorBody},
}

func probeKTRDR(t *testing.T) []drift.Result {
	t.Helper()
	probes, shapes, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return drift.Run(context.Background(), probes, shapes, drift.Options{})
}

// TestProbeSeesEachDrift: every GET route probes ok against the fake, each
// drift shows on the operations list, and only GETs are sent.
func TestProbeSeesEachDrift(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("KTRDR_API_URL", base)
	for _, r := range probeKTRDR(t) {
		if r.Status != drift.OK {
			t.Errorf("undrifted: %s %s %s %v %s", r.Route, r.Path, r.Status, r.Findings, r.Error)
		}
	}
	for _, c := range driftCases {
		f.Drift().Set(c.drift)
		r := servetest.ResultFor(probeKTRDR(t), "list operations")
		found := false
		for _, fd := range r.Findings {
			found = found || fd.Kind == c.kind
		}
		if r.Status != c.status || !found {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	if m := f.Drift().Methods(); len(m) != 1 || m[0] != "GET" {
		t.Errorf("the probe sent %v", f.Drift().Seen())
	}
	if n := len(f.Drift().Seen()); n < len(client.Shapes)-5 {
		t.Errorf("only %d routes probed: %v", n, f.Drift().Seen())
	}
}

// TestRunTimeWatchSeesEachDrift: list_operations notices the same drift and
// logs each kind once.
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	servetest.WatchEveryAnswer(t)
	e := start(t, setup{})
	for _, c := range driftCases {
		e.fake.Drift().Set(c.drift)
		e.call(t, "list_operations", map[string]any{"limit": 5})
		e.call(t, "list_operations", map[string]any{"limit": 6})
		if n := strings.Count(e.conn.Logs(), `"route":"list operations","drift":"`+c.kind+`"`); n != 1 {
			t.Errorf("%s: %d warn lines", c.name, n)
		}
	}
}
