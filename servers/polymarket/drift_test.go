package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// driftCases: each way the fake drifts, the route it shows on and the
// finding both the probe and the run-time watch must report.
var driftCases = []struct {
	name  string
	drift fakeupstream.Drift
	route string
	kind  string
}{
	{"deprecation headers", fakeupstream.Drift{Deprecate: true}, "list markets", drift.Deprecated},
	{"renamed field", fakeupstream.Drift{RenameFrom: "conditionId", RenameTo: "condition_id"}, "list markets", drift.Missing},
	{"new enum value", fakeupstream.Drift{EnumField: "type", EnumValue: "PREDICTION_BONUS"}, "get user activity", drift.NewEnum},
	{"new error body", fakeupstream.Drift{ErrorBody: true}, "list markets", drift.ErrorBody},
}

func probe(t *testing.T) []drift.Result {
	t.Helper()
	probes, shapes, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return drift.Run(context.Background(), probes, shapes, drift.Options{})
}

func startProbeFake(t *testing.T) *fake.Server {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	for _, env := range []string{client.EnvGammaURL, client.EnvClobURL, client.EnvDataURL, client.EnvBTCURL, client.EnvBTCFallbackURL} {
		t.Setenv(env, base)
	}
	return f
}

func result(rs []drift.Result, route string) drift.Result {
	for _, r := range rs {
		if r.Route == route {
			return r
		}
	}
	return drift.Result{}
}

func found(r drift.Result, kind string) bool {
	for _, f := range r.Findings {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// TestProbeSeesEachDrift: against the undrifted fake every route probes
// ok; each drift shows on its route with its finding.
func TestProbeSeesEachDrift(t *testing.T) {
	f := startProbeFake(t)
	rs := probe(t)
	if len(rs) != len(client.Shapes) {
		t.Fatalf("%d probes for %d shaped routes", len(rs), len(client.Shapes))
	}
	for _, r := range rs {
		if r.Status != drift.OK {
			t.Errorf("undrifted: %s %s %s %v %s", r.Route, r.Path, r.Status, r.Findings, r.Error)
		}
	}
	for _, c := range driftCases {
		f.Drift().Set(c.drift)
		r := result(probe(t), c.route)
		if !found(r, c.kind) || r.Status == drift.OK {
			t.Errorf("%s: %s %s %v %s", c.name, r.Route, r.Status, r.Findings, r.Error)
		}
	}
}

// TestProbeOnlyReads: the probe sends GETs, and POSTs only to the CLOB's
// two read routes.
func TestProbeOnlyReads(t *testing.T) {
	f := startProbeFake(t)
	probe(t)
	seen := f.Drift().Seen()
	if len(seen) < len(client.Shapes) {
		t.Fatalf("only %v", seen)
	}
	for k := range seen {
		if !strings.HasPrefix(k, "GET ") && k != "POST /books" && k != "POST /prices" {
			t.Errorf("the probe sent %s", k)
		}
	}
}

// TestRunTimeWatchSeesEachDrift: ordinary tool calls notice the same drift
// and log each once, at warn level, with its route.
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	drift.Default().Reset()
	drift.Default().SetSample(0)
	t.Cleanup(func() { drift.Default().SetSample(drift.DefaultSample); drift.Default().Reset() })
	s := start(t, opts{})
	for i, c := range driftCases {
		s.fake.Drift().Set(c.drift)
		for range 2 { // the second call is logged no more
			s.conn.Call(t, "list_markets", map[string]any{"limit": i + 1})
			s.conn.Call(t, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": i + 1})
		}
		logs := s.conn.Logs()
		if n := strings.Count(logs, `"route":"`+c.route+`","drift":"`+c.kind+`"`); n != 1 {
			t.Errorf("%s: %d warn lines for %s %s", c.name, n, c.route, c.kind)
		}
	}
	var seen []string
	for _, sg := range drift.Default().Signals() {
		seen = append(seen, sg.Route+" "+sg.Kind)
	}
	for _, c := range driftCases {
		if !strings.Contains(strings.Join(seen, ","), c.route+" "+c.kind) {
			t.Errorf("%s not kept: %v", c.name, seen)
		}
	}
}
