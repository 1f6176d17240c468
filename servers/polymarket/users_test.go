package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestActivityEveryType: "all" is all (deposits and withdrawals included,
// which the API leaves out unless asked), rebates and rewards are income in
// the totals, and by_type adds up every row.
func TestActivityEveryType(t *testing.T) {
	s := start(t, opts{})
	out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.KnownUser})
	types := map[string]bool{}
	for _, a := range out.Activity {
		types[a.Type] = true
	}
	for _, want := range []string{"TRADE", "REDEEM", "REWARD", "MAKER_REBATE", "TAKER_REBATE", "YIELD", "DEPOSIT", "WITHDRAWAL"} {
		if !types[want] {
			t.Errorf("no %s row in %v", want, types)
		}
	}
	tot := out.Totals
	if tot.IncomeUSDC != 1.25+3.4+0.6+0.15 || tot.DepositedUSDC != 500 || tot.WithdrawnUSDC != 120 {
		t.Fatalf("totals %+v", tot)
	}
	if mr := tot.ByType["MAKER_REBATE"]; mr.Rows != 1 || mr.USDC != 3.4 {
		t.Fatalf("by_type %+v", tot.ByType)
	}
	rows := 0
	for _, bt := range tot.ByType {
		rows += bt.Rows
	}
	if rows != tot.Rows || rows != len(out.Activity) || out.TotalsCover != envelope.TotalsPage || !out.Complete || len(out.UnknownTypes) != 0 {
		t.Fatalf("%+v", out)
	}
	t.Run("a type filter asking for deposits gets them", func(t *testing.T) {
		out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.KnownUser, "types": []string{"DEPOSIT"}})
		if len(out.Activity) != 1 || out.Activity[0].Type != "DEPOSIT" || out.Activity[0].USDC != 500 {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("an unknown type in the filter is refused before any request", func(t *testing.T) {
		before := s.fake.Count(fake.RouteActivity)
		res := s.conn.Call(t, "get_user_activity", map[string]any{"user": fake.KnownUser, "types": []string{"BONUS"}})
		if !res.IsError || s.fake.Count(fake.RouteActivity) != before {
			t.Fatal("BONUS accepted")
		}
	})
}

// TestActivityNewTypePassesThrough: a type Polymarket adds tomorrow is
// passed through, counted, named in unknown_types and logged as drift once.
func TestActivityNewTypePassesThrough(t *testing.T) {
	drift.Default().Reset()
	t.Cleanup(drift.Default().Reset)
	s := start(t, opts{})
	s.fake.Drift().Set(fakeupstream.Drift{EnumField: "type", EnumValue: "PREDICTION_BONUS"})
	for i := range 3 {
		out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": 5 + i})
		if len(out.Activity) == 0 || out.Activity[0].Type != "PREDICTION_BONUS" || len(out.UnknownTypes) != 1 ||
			out.Totals.ByType["PREDICTION_BONUS"].Rows != len(out.Activity) {
			t.Fatalf("%+v", out)
		}
	}
	if n := strings.Count(s.conn.Logs(), `"route":"get user activity","drift":"unknown_enum"`); n != 1 {
		t.Fatalf("%d drift lines, want 1", n)
	}
}

// TestPositionsWalletTotal: a wallet of 300 positions is totalled in one
// call (GET /value beside the first page), and the total is the sum of
// every page's current value.
func TestPositionsWalletTotal(t *testing.T) {
	s := start(t, opts{})
	before := s.fake.Count(fake.RoutePositions) + s.fake.Count(fake.RouteValue)
	out := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.WhaleUser})
	if n := s.fake.Count(fake.RoutePositions) + s.fake.Count(fake.RouteValue) - before; n != 2 {
		t.Fatalf("%d requests, want one page and one total", n)
	}
	if len(out.Positions) != 25 || !out.More || out.Complete || out.WalletValue == nil || out.TotalsCover != envelope.TotalsPage {
		t.Fatalf("%+v", out)
	}
	sum, cur := 0.0, ""
	for pages := 0; ; pages++ {
		args := map[string]any{"user": fake.WhaleUser, "limit": 100}
		if cur != "" {
			args["cursor"] = cur
		}
		p := call[tools.PositionsOut](t, s, "get_user_positions", args)
		for _, po := range p.Positions {
			sum += po.CurrentValue
		}
		if cur = p.NextCursor; cur == "" || pages > 5 {
			break
		}
	}
	if d := *out.WalletValue - sum; d > 0.05 || d < -0.05 {
		t.Fatalf("wallet_value_usdc %v, the pages add up to %v", *out.WalletValue, sum)
	}
	t.Run("a wallet with nothing", func(t *testing.T) {
		out := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": "0x" + strings.Repeat("b", 40)})
		if len(out.Positions) != 0 || out.WalletValue == nil || *out.WalletValue != 0 || !out.Complete || out.Empty == "" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("the total fails, the page stays", func(t *testing.T) {
		s.fake.SetFault(fake.Fault{Kind: "500", Route: fake.RouteValue, Count: 10})
		t.Cleanup(s.fake.ClearFaults)
		out := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "limit": 3})
		if len(out.Positions) != 3 || out.WalletValue != nil || !strings.Contains(out.WalletValueNote, "could not be read") {
			t.Fatalf("%+v", out)
		}
	})
}

// TestPositionsV2: positions come from the Data API v2 by status (OPEN by
// default, CLOSED the sold-out ones with their realized P&L), a wallet of
// 300 is walked to its end through v2 cursors (no offset cap), and a cursor
// is refused with other filters than its own.
func TestPositionsV2(t *testing.T) {
	s := start(t, opts{})
	closed := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "status": "CLOSED"})
	if len(closed.Positions) != 1 || closed.Positions[0].RealizedPnl != 42.5 || closed.Positions[0].Size != 0 || !closed.Complete ||
		!strings.Contains(closed.WalletValueNote, "closed") {
		t.Fatalf("%+v", closed)
	}
	none := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "status": "REDEEMABLE"})
	if len(none.Positions) != 0 || !none.Complete || !strings.Contains(none.Empty, "redeemable") {
		t.Fatalf("%+v", none)
	}
	seen, cur, pages := map[string]bool{}, "", 0
	for ; pages < 10; pages++ {
		args := map[string]any{"user": fake.WhaleUser, "limit": 120}
		if cur != "" {
			args["cursor"] = cur
		}
		p := call[tools.PositionsOut](t, s, "get_user_positions", args)
		for _, po := range p.Positions {
			seen[po.TokenID+po.Title] = true
		}
		if p.NextCursor != "" && (p.Complete || p.Incomplete == nil || p.Incomplete.Cursor != p.NextCursor) {
			t.Fatalf("page %d: %+v", pages, p.Coverage)
		}
		if cur = p.NextCursor; cur == "" {
			break
		}
		if pages == 0 {
			res := s.conn.Call(t, "get_user_positions", map[string]any{"user": fake.WhaleUser, "status": "CLOSED", "cursor": cur})
			if b := servetest.ErrorBody(t, res); b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "other filters") {
				t.Fatalf("%+v", b)
			}
		}
	}
	if pages != 2 || len(seen) < fake.WhalePositions/2 {
		t.Fatalf("%d pages, %d distinct positions", pages+1, len(seen))
	}
	if n := s.fake.Count(fake.RoutePositionsV1); n != 0 {
		t.Fatalf("%d requests to v1 /positions", n)
	}
}

// TestActivityOffsetCap: GET /activity takes offsets up to 5,000 and
// refuses past them with a 400 (docs.polymarket.com/api-reference/core/get-user-activity,
// the Data API OpenAPI): the last cursor starts a page at 5,000 at most and
// the page past it says capped, naming start/end windows.
func TestActivityOffsetCap(t *testing.T) {
	s := start(t, opts{})
	out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.BusyUser, "limit": 10,
		"cursor": tools.OffsetCursor("get_user_activity", 4990)})
	if out.NextCursor == "" {
		t.Fatalf("offset 5000 is served: %+v", out.Coverage)
	}
	last := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.BusyUser, "limit": 10, "cursor": out.NextCursor})
	if last.NextCursor != "" || last.Complete || last.Incomplete == nil || last.Incomplete.Reason != envelope.Capped ||
		!strings.Contains(last.Incomplete.Missing, "5000") || !strings.Contains(last.Incomplete.Next, "start/end") {
		t.Fatalf("%+v", last.Coverage)
	}
}
