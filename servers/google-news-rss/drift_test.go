package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// driftCases: each way the fake drifts and what the probe and the
// run-time watch must report on the search feed.
var driftCases = []struct {
	name   string
	drift  fakeupstream.Drift
	status string
	kind   string
}{
	{"deprecation headers", fakeupstream.Drift{Deprecate: true}, drift.StatusDepr, drift.Deprecated},
	{"renamed element", fakeupstream.Drift{RenameFrom: "pubDate", RenameTo: "published"}, drift.StatusDrift, drift.Missing},
	{"new link form", fakeupstream.Drift{EnumField: "link", EnumValue: "https://news.google.com/read/CBMi"}, drift.StatusDrift, drift.NewEnum},
	{"new error body", fakeupstream.Drift{ErrorBody: true}, drift.StatusDrift, drift.ErrorBody},
}

func probeOnce(t *testing.T) drift.Result {
	t.Helper()
	probes, shapes, err := tools.DriftSetup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs := drift.Run(context.Background(), probes, shapes, drift.Options{})
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	return rs[0]
}

func hasKind(fs []drift.Finding, kind string) bool {
	for _, f := range fs {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// TestProbeSeesEachDrift and reads only: one GET of the search feed.
func TestProbeSeesEachDrift(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv(feed.EnvBaseURL, base)
	if r := probeOnce(t); r.Status != drift.OK || r.HTTP != 200 {
		t.Fatalf("undrifted: %+v", r)
	}
	for _, c := range driftCases {
		f.Drift().Set(c.drift)
		if r := probeOnce(t); r.Status != c.status || !hasKind(r.Findings, c.kind) {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	if seen := f.Drift().Seen(); len(seen) != 1 || seen["GET /rss/search"] != 1+len(driftCases) {
		t.Errorf("the probe sent %v", seen)
	}
}

// TestRunTimeWatchSeesEachDrift: ordinary previews notice the same drift
// and log it once per route per day at warn level.
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	servetest.WatchEveryAnswer(t)
	e := start(t, setup{})
	for i, c := range driftCases {
		e.fake.Drift().Set(c.drift)
		for j := range 2 {
			e.call(t, "preview_search_feed", map[string]any{"q": fmt.Sprintf("drift%d OR case%d", i, j), "edition": "US", "limit": 3})
		}
		if n := strings.Count(e.conn.Logs(), `"route":"search feed","drift":"`+c.kind+`"`); n != 1 {
			t.Errorf("%s: %d warn lines", c.name, n)
		}
	}
	if n := len(e.conn.Built.Registry.Drift.Signals()); n < len(driftCases) {
		t.Errorf("%d signals kept", n)
	}
}
