package main

import (
	"encoding/json"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// TestEveryListToolSaysWhatItCovers: each list, series, search or finder
// tool answers with envelope.Coverage (complete, or incomplete with a
// reason, what is missing and the next step; a page's cursor equal to its
// next_cursor), and its upstream failing is an error, never an empty list.
// A tool of tools/list without a row here (or an exemption) fails.
func TestEveryListToolSaysWhatItCovers(t *testing.T) {
	s := start(t, opts{})
	_, _, cond, tok := s.fake.Market(3)
	rows := []struct {
		tool  string
		route string // the upstream route the tool cannot do without
		args  map[string]any
	}{
		{"search_markets", fake.RouteSearch, map[string]any{"query": "fake", "limit": 3}},
		{"list_markets", fake.RouteMarketsKeyset, map[string]any{"limit": 5}},
		{"list_events", fake.RouteEventsKeyset, map[string]any{"limit": 3}},
		{"get_order_books", fake.RouteBooks, map[string]any{"token_ids": []string{tok[0], tok[1]}}},
		{"get_prices", fake.RoutePrices, map[string]any{"token_ids": []string{tok[0]}}},
		{"get_price_history", fake.RouteHistory, map[string]any{"token_id": tok[0], "interval": "1d"}},
		{"get_user_positions", fake.RoutePositions, map[string]any{"user": fake.KnownUser}},
		{"get_user_activity", fake.RouteActivity, map[string]any{"user": fake.KnownUser}},
		{"get_top_holders", fake.RouteHolders, map[string]any{"condition_id": cond}},
		{"list_comments", fake.RouteCommentsKeyset, map[string]any{"entity_type": "event", "entity_id": 900001, "limit": 5}},
		{"get_builder_leaderboard", fake.RouteBuilders, map[string]any{"limit": 10}},
		{"find_trending_markets", fake.RouteMarketsKeyset, map[string]any{"limit": 3}},
		{"find_closing_soon", fake.RouteMarketsKeyset, map[string]any{"hours": 720}},
		{"find_longshots", fake.RouteMarketsKeyset, map[string]any{"limit": 3}},
		{"find_volatile_markets", fake.RouteMarketsKeyset, map[string]any{"limit": 3}},
		{"subscribe_market_feed", fake.RouteMarketSocket, map[string]any{"token_ids": []string{tok[0]}}},
		{"get_market_feed", "", map[string]any{}}, // this server's own state (the live feed): no upstream to fail
	}
	// one thing each, not a list: their answer is whole or an error
	exempt := map[string]bool{"get_market": true, "get_event": true, "get_btc_price": true, "execute-python-code": true,
		"unsubscribe_market_feed": true} // an action: what it removed
	have := map[string]bool{}
	for _, r := range rows {
		have[r.tool] = true
	}
	for _, tl := range s.conn.Tools(t) {
		if !have[tl.Name] && !exempt[tl.Name] {
			t.Errorf("%s has no row: add it with the coverage its results carry", tl.Name)
		}
	}
	reasons := map[envelope.Reason]bool{envelope.Paged: true, envelope.Capped: true, envelope.Truncated: true, envelope.Windowed: true, envelope.Partial: true}
	for _, r := range rows {
		t.Run(r.tool, func(t *testing.T) {
			res := s.conn.Call(t, r.tool, r.args)
			if res.IsError {
				t.Fatalf("%+v", servetest.ErrorBody(t, res))
			}
			var got struct {
				Complete   *bool                `json:"complete"`
				Incomplete *envelope.Incomplete `json:"incomplete"`
				Next       string               `json:"next_cursor"`
			}
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &got); err != nil || got.Complete == nil {
				t.Fatalf("no coverage in %s", b)
			}
			if !*got.Complete {
				in := got.Incomplete
				if in == nil || !reasons[in.Reason] || in.Missing == "" || in.Next == "" {
					t.Fatalf("incomplete without its reason, what is missing and the next step: %s", b)
				}
				if in.Reason == envelope.Paged && (in.Cursor == "" || in.Cursor != got.Next) {
					t.Fatalf("a page's cursor %q, next_cursor %q", in.Cursor, got.Next)
				}
			}
			if r.route == "" {
				return
			}
			s.fake.SetFault(fake.Fault{Kind: fake.Fault500, Route: r.route})
			defer s.fake.ClearFaults()
			fresh := connect(t, s.base, opts{}) // its own caches: the call reaches the failing route
			if res := fresh.Call(t, r.tool, r.args); !res.IsError {
				t.Fatalf("the upstream failed and the tool answered success: %s", servetest.Text(res))
			}
		})
	}
}

// TestFinderPartialScan: a finder whose later scan page fails keeps the
// markets it read and says so (partial, naming the failure); its first
// page failing is an error.
func TestFinderPartialScan(t *testing.T) {
	for _, tc := range []struct {
		name    string
		skip    int
		wantErr bool
	}{
		{"second page fails", 1, false},
		{"third page fails", 2, false},
		{"first page fails", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, opts{})
			s.fake.SetFault(fake.Fault{Kind: fake.Fault500, Route: fake.RouteMarketsKeyset, Skip: tc.skip})
			res := s.conn.Call(t, "find_trending_markets", map[string]any{"limit": 3, "scan_limit": 300})
			if tc.wantErr {
				if !res.IsError {
					t.Fatalf("success: %s", servetest.Text(res))
				}
				return
			}
			if res.IsError {
				t.Fatalf("%+v", servetest.ErrorBody(t, res))
			}
			var out struct {
				envelope.Coverage
				Scanned int `json:"scanned"`
			}
			b, _ := json.Marshal(res.StructuredContent)
			_ = json.Unmarshal(b, &out)
			if out.Complete || out.Incomplete == nil || out.Incomplete.Reason != envelope.Partial || out.Scanned != 100*tc.skip {
				t.Fatalf("%s", b)
			}
		})
	}
}
