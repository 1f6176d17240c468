package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// driftCases are the four ways the fake drifts and what the probe must say
// of each route (model, search).
var driftCases = []struct {
	name       string
	drift      fakeupstream.Drift
	model      string // the probe's status of the model route
	search     string
	kind       string // the finding both the probe and the run-time watch report
	searchOnly bool   // the drift shows on the search route only
}{
	{"deprecation headers", fakeupstream.Drift{Deprecate: true}, drift.StatusDepr, drift.StatusDepr, drift.Deprecated, false},
	{"renamed field", fakeupstream.Drift{RenameFrom: "id", RenameTo: "response_id"}, drift.StatusDrift, drift.StatusDrift, drift.Missing, false},
	{"new enum value", fakeupstream.Drift{EnumField: "type", EnumValue: "web_search_preview_call"}, drift.OK, drift.StatusDrift, drift.NewEnum, true},
	{"new error body", fakeupstream.Drift{ErrorBody: true}, drift.StatusDrift, drift.StatusDrift, drift.ErrorBody, false},
}

func newFake() *fake.Server { return fake.New(fake.Options{}) }

func probeFake(t *testing.T, f *fake.Server, paid bool) []drift.Result {
	t.Helper()
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv(openai.EnvBaseURL, base+"/v1")
	t.Setenv(openai.EnvAPIKey, "sk-test")
	probes, shapes, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return drift.Run(context.Background(), probes, shapes, drift.Options{IncludePaid: paid})
}

func statusOf(rs []drift.Result, route string) drift.Result {
	for _, r := range rs {
		if r.Route == route {
			return r
		}
	}
	return drift.Result{}
}

func hasFinding(r drift.Result, kind string) bool {
	for _, f := range r.Findings {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// TestProbeSeesEachDrift: the live probe, pointed at the fake, reports
// each kind of drift on the routes it touches, and nothing when the fake
// answers like OpenAI.
func TestProbeSeesEachDrift(t *testing.T) {
	f := newFake()
	rs := probeFake(t, f, true)
	if w := drift.Worst(rs); w != drift.OK {
		t.Fatalf("an undrifted fake probes %s: %+v", w, rs)
	}
	for _, c := range driftCases {
		f.Drift().Set(c.drift)
		rs := drift.Run(context.Background(), mustProbes(t), openai.Shapes, drift.Options{IncludePaid: true})
		m, s := statusOf(rs, "model"), statusOf(rs, "search")
		if m.Status != c.model || s.Status != c.search || !hasFinding(s, c.kind) {
			t.Errorf("%s: model %s, search %s %+v", c.name, m.Status, s.Status, s.Findings)
		}
	}
}

func mustProbes(t *testing.T) []drift.Probe {
	probes, _, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return probes
}

// TestProbeOnlyReads: without --include-paid the probe sends one GET and
// no search; with it, the one search is the only POST. Nothing else.
func TestProbeOnlyReads(t *testing.T) {
	f := newFake()
	rs := probeFake(t, f, false)
	if statusOf(rs, "search").Status != drift.StatusSkip {
		t.Fatalf("a paid search ran without --include-paid: %+v", rs)
	}
	if seen := f.Drift().Seen(); len(seen) != 1 || seen["GET /v1/models/gpt-6-luna"] != 1 {
		t.Fatalf("requests %v", seen)
	}
	drift.Run(context.Background(), mustProbes(t), openai.Shapes, drift.Options{IncludePaid: true})
	if seen := f.Drift().Seen(); len(seen) != 2 || seen["POST /v1/responses"] != 1 {
		t.Fatalf("requests %v", seen)
	}
}

// TestRunTimeWatchSeesEachDrift: on ordinary searches the server notices
// the same drift, logs it at warn level once, and get_search_capabilities
// shows it.
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	servetest.WatchEveryAnswer(t)
	e := start(t, setup{extra: []string{"--cache-ttl", "0"}})
	for i, c := range driftCases {
		e.fake.Drift().Set(c.drift)
		e.search(t, q("drift query "+c.name))
		e.search(t, q("drift query again "+c.name))
		caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
		found := false
		for _, d := range caps.Warnings {
			found = found || strings.HasPrefix(d, "upstream drift: OpenAI search "+c.kind+":")
		}
		if !found {
			t.Errorf("%s: capabilities warn %q", c.name, caps.Warnings)
		}
		logs := e.conn.Logs()
		if n := strings.Count(logs, `"route":"search","drift":"`+c.kind+`"`); n < 1 || i == 0 && n != 1 {
			t.Errorf("%s: %d warn lines for %s:\n%s", c.name, n, c.kind, logs)
		}
	}
}
