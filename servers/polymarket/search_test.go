package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestSearchTotalsAndPages: events_total is Gamma's count over every page,
// pages are walked by cursor to the end (complete there), no match is an
// empty but complete answer that says so, and a cursor past the 100 pages
// the search serves is refused before any request.
func TestSearchTotalsAndPages(t *testing.T) {
	s := start(t, opts{})
	args := func(cur string) map[string]any {
		a := map[string]any{"query": "fake", "limit": 10, "state": "all"}
		if cur != "" {
			a["cursor"] = cur
		}
		return a
	}
	first := call[tools.SearchOut](t, s, "search_markets", args(""))
	if first.EventsTotal == nil || *first.EventsTotal <= len(first.Events) || first.Complete || first.Incomplete.Reason != envelope.Paged || first.NextCursor == "" {
		t.Fatalf("first page: total %v, %d events, coverage %+v", first.EventsTotal, len(first.Events), first.Coverage)
	}
	seen, cur := len(first.Events), first.NextCursor
	for pages := 1; cur != ""; pages++ {
		if pages > 20 {
			t.Fatal("no end")
		}
		p := call[tools.SearchOut](t, s, "search_markets", args(cur))
		seen += len(p.Events)
		cur = p.NextCursor
		if cur == "" && (p.Incomplete != nil && p.Incomplete.Reason == envelope.Paged) {
			t.Fatalf("last page says paged: %+v", p.Coverage)
		}
	}
	if seen != *first.EventsTotal {
		t.Fatalf("walked %d events, events_total %d", seen, *first.EventsTotal)
	}
	none := call[tools.SearchOut](t, s, "search_markets", map[string]any{"query": "zzzz nothing"})
	if !none.Complete || none.Empty == "" {
		t.Fatalf("%+v", none.Coverage)
	}
	before := s.fake.Count(fake.RouteSearch)
	b := servetest.ErrorBody(t, s.conn.Call(t, "search_markets", args(tools.OffsetCursor("search_markets", 101))))
	if b.Code != envelope.InvalidArgument || s.fake.Count(fake.RouteSearch) != before {
		t.Fatalf("%+v", b)
	}
}
