package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answers behind it.
const maxListRatio = 0.30

// TestListResultRatio measures each list tool's result (the text block the
// model reads and the structured content, the larger) against the raw bytes
// of every upstream answer the call needed, on the fake's payloads (Gamma,
// Data API and CLOB rows with the public field sets).
func TestListResultRatio(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	proxyURL, upstream := servetest.CountingProxy(t, base)
	_, _, cond, tok := f.Market(3)

	cases := []struct {
		tool    string
		args    map[string]any
		ceiling float64 // 0: maxListRatio; else the measured value, its reason beside it
	}{
		{"search_markets", map[string]any{"query": "fake outcome", "limit": 10}, 0},
		{"list_markets", map[string]any{"limit": 10}, 0},
		{"list_events", map[string]any{"limit": 5}, 0},
		{"get_price_history", map[string]any{"token_id": tok[0], "interval": "1w"}, 0},
		// A position keeps its token id (78 B of ~230) for get_prices and
		// get_order_books, and carries current and initial value, cash and %
		// P&L plus the page's totals: the figures users ask for ("what is my
		// portfolio worth?"), never left to the model's arithmetic. The end
		// date (get_market) is left out. Measured 40%; 41% with the wallet's
		// total (GET /value) and the coverage and totals_cover fields; 56%
		// on Data API v2, whose rows are leaner than v1's (snake_case, no
		// icon, opposite outcome or event id): the same 1,049 B against
		// 1,883 B upstream instead of ~2,550.
		{"get_user_positions", map[string]any{"user": fake.KnownUser}, 0.57},
		{"get_user_activity", map[string]any{"user": fake.KnownUser}, 0},
		// Holders are a table per outcome (wallet, name, shares, share of the
		// listed holders, verified) with each outcome's total shares; the
		// outcome's token id is not repeated. Measured 31%; 21% since the
		// market is read for the outcomes' names (its bytes count upstream).
		{"get_top_holders", map[string]any{"condition_id": cond}, 0.32},
		// Comments keep id, body, author and time; the wallet only for an
		// author without a name.
		{"list_comments", map[string]any{"entity_type": "event", "entity_id": 900001}, 0},
		// Upstream rows are already rank, builder, volume, activeUsers,
		// verified (+ a logo URL, dropped): nothing is left to drop, so the
		// page is a table (cols once, rows of values; was 77% as objects).
		// ~35 B a row is the values themselves; rank stays a column because
		// upstream sends it (ties are not ruled out), not derived from order.
		// 30% would take dropping rank or verified, both an agent's to weigh
		// (rs-clob-client src/data/types/ lists exactly these fields and the logo).
		// Measured 37%; 40% with the coverage of a page (reason, what is
		// missing and the cursor, ~140 B) that says the board goes on.
		{"get_builder_leaderboard", map[string]any{"time_period": "WEEK", "limit": 50}, 0.41},
		{"find_trending_markets", map[string]any{"limit": 5}, 0},
		{"find_closing_soon", map[string]any{"hours": 48}, 0},
		{"find_longshots", map[string]any{"limit": 5}, 0},
		{"find_volatile_markets", map[string]any{"limit": 5}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			conn := connect(t, proxyURL, opts{}) // its own caches: every call reaches the fake
			upstream.Store(0)
			res := conn.Call(t, tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%+v", res.Content)
			}
			ceiling := maxListRatio
			if tc.ceiling > 0 {
				ceiling = tc.ceiling
			}
			servetest.ListRatio(t, tc.tool, res, upstream.Load(), 500, ceiling)
		})
	}
}
