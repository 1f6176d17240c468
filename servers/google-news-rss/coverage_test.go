package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

type covered struct {
	envelope.Coverage
	ItemCount  int      `json:"item_count"`
	Items      []item   `json:"items"`
	ThirdParty []string `json:"third_party"`
}

// TestCappedFeedSaysSo: a busy query fills Google's 100 items (no paging:
// ranahaani/GNews docs/backends/rss.md; kotartemiy/pygooglenews#19). After
// duplicates are dropped item_count is below 100 and looks whole, so the
// result says it is capped, the days the items span and how to split the
// query; previews and scheduled fetches alike.
func TestCappedFeedSaysSo(t *testing.T) {
	clk := clock.NewFake(t0)
	e := start(t, setup{clock: clk, fake: fake.New(fake.Options{Now: clk.Now, Items: fake.MaxItems})})
	res := e.call(t, "preview_search_feed", map[string]any{"q": "gaza ceasefire", "limit": 100})
	out := servetest.Decode[covered](t, res)
	if out.ItemCount >= 100 || out.ItemCount < 90 {
		t.Fatalf("item_count %d: the fake's duplicates should leave it below the cap", out.ItemCount)
	}
	checkCapped(t, "preview", out.Coverage)
	if strings.Join(out.ThirdParty, ",") != "items[].title,items[].publisher,items[].snippet" {
		t.Errorf("third_party %v", out.ThirdParty)
	}
	key := e.build(t, map[string]any{"q": "gaza ceasefire"}).QueryKey
	var f covered
	f = servetest.Decode[covered](t, e.call(t, "fetch_search_feed", map[string]any{"query_key": key}))
	checkCapped(t, "fetch", f.Coverage)
	// The same feed, served from the kept poll, still says so.
	f = servetest.Decode[covered](t, e.call(t, "preview_search_feed", map[string]any{"query_key": key}))
	checkCapped(t, "preview from the feed cache", f.Coverage)
}

func checkCapped(t *testing.T, what string, c envelope.Coverage) {
	t.Helper()
	if c.Complete || c.Incomplete == nil || c.Incomplete.Reason != envelope.Capped {
		t.Fatalf("%s: coverage %+v", what, c)
	}
	in := c.Incomplete
	if !strings.Contains(in.Missing, "at most 100 items") || !strings.Contains(in.Missing, "run from 2026-") ||
		!strings.Contains(in.Next, "after:") || !strings.Contains(in.Next, "before:") || !strings.Contains(in.Next, "build_search_feed") {
		t.Errorf("%s: %+v", what, in)
	}
}

// TestFeedCoverageBelowTheCap: a 30-item feed is whole; a preview cut to
// its limit says which items it left out.
func TestFeedCoverageBelowTheCap(t *testing.T) {
	e := start(t, setup{})
	whole := servetest.Decode[covered](t, e.call(t, "preview_search_feed", map[string]any{"q": "boeing", "limit": 100}))
	if !whole.Complete || whole.Incomplete != nil || whole.ItemCount != 28 {
		t.Errorf("whole feed: %+v, %d items", whole.Coverage, whole.ItemCount)
	}
	cut := servetest.Decode[covered](t, e.call(t, "preview_search_feed", map[string]any{"q": "boeing", "limit": 5}))
	if cut.Complete || cut.Incomplete == nil || cut.Incomplete.Reason != envelope.Truncated ||
		cut.Incomplete.Missing != "items 6 to 28 of this feed" || !strings.Contains(cut.Incomplete.Next, "limit") {
		t.Errorf("limited preview: %+v %+v", cut.Coverage, cut.Incomplete)
	}
	key := e.build(t, map[string]any{"q": "boeing"}).QueryKey
	if f := servetest.Decode[covered](t, e.call(t, "fetch_search_feed", map[string]any{"query_key": key})); !f.Complete {
		t.Errorf("fetch of a 28-item feed: %+v", f.Incomplete)
	}
}

// TestShortWhenWarned: fetch_search_feed polls once per 3-hour window, so
// a when: under 3 hours never sees the items between its reach and the
// previous poll; build_search_feed says so (and still builds the query).
func TestShortWhenWarned(t *testing.T) {
	e := start(t, setup{})
	for _, tc := range []struct {
		args map[string]any
		warn bool
	}{
		{map[string]any{"terms": []string{"dubai"}, "when": "1h"}, true},
		{map[string]any{"q": "dubai when:2h"}, true},
		{map[string]any{"terms": []string{"dubai"}, "when": "3h"}, false},
		{map[string]any{"terms": []string{"dubai"}, "when": "2d"}, false},
		{map[string]any{"q": "dubai"}, false},
	} {
		var out struct {
			Q        string   `json:"q"`
			Warnings []string `json:"warnings"`
		}
		out = servetest.Decode[struct {
			Q        string   `json:"q"`
			Warnings []string `json:"warnings"`
		}](t, e.call(t, "build_search_feed", tc.args))
		got := strings.Join(out.Warnings, " ")
		if tc.warn != strings.Contains(got, "3-hour poll window") || (tc.warn && !strings.Contains(got, "when:3h or longer")) {
			t.Errorf("%v (q %q): warnings %q", tc.args, out.Q, out.Warnings)
		}
	}
}
