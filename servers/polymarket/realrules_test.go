package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// The real APIs' rules as they answer today (each rule's public source is
// cited where the fake implements it), one subtest per way a user met them.
func TestRealAPIRules(t *testing.T) {
	s := start(t, opts{})
	id, _, cond, tok := s.fake.Market(3)
	_, _, _, closedTok := s.fake.Market(fake.NumOpen)

	t.Run("comments for a market are its event's, asked with Event", func(t *testing.T) {
		out := call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "market", "entity_id": mustInt(t, id)})
		if len(out.Comments) == 0 || !strings.Contains(out.ResolvedTo, "event 900000") {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("price history 1m and 1w get Polymarket's fidelity floor", func(t *testing.T) {
		for _, iv := range []string{"1m", "1w"} {
			out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": iv, "fidelity": 1})
			if len(out.Points) == 0 || !strings.Contains(out.Note, "fidelity raised") {
				t.Fatalf("%s: %+v", iv, out.Note)
			}
			out = call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": iv})
			if len(out.Points) == 0 {
				t.Fatalf("%s without fidelity: %+v", iv, out.Note)
			}
		}
	})
	t.Run("a window over 15 days is read in chunks and joined", func(t *testing.T) {
		now := time.Now().Unix()
		out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "start_ts": now - 25*86400, "end_ts": now})
		if len(out.Points) == 0 || !strings.Contains(out.Note, "2 windows") {
			t.Fatalf("%+v", out.Note)
		}
		for i := 1; i < len(out.Points); i++ {
			if out.Points[i][0] <= out.Points[i-1][0] {
				t.Fatalf("points out of order or repeated at %d", i)
			}
		}
	})
	t.Run("a resolved market's history comes from before closedTime", func(t *testing.T) {
		out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": closedTok[0], "interval": "1w"})
		if len(out.Points) == 0 || !strings.Contains(out.Note, "before it closed") {
			t.Fatalf("%+v", out.Note)
		}
	})
	t.Run("listing never uses the sunset offset route; state=all has the closed ones", func(t *testing.T) {
		before := s.fake.Count(fake.RouteMarkets)
		seenClosed, cur := false, ""
		for i := 0; i < 5; i++ {
			args := map[string]any{"state": "all", "limit": 100}
			if cur != "" {
				args["cursor"] = cur
			}
			out := call[tools.MarketsOut](t, s, "list_markets", args)
			for _, m := range out.Markets {
				seenClosed = seenClosed || m.State == "closed"
			}
			if cur = out.NextCursor; cur == "" {
				break
			}
		}
		if !seenClosed || s.fake.Count(fake.RouteMarkets) != before {
			t.Fatalf("closed seen %v, /markets requests %d", seenClosed, s.fake.Count(fake.RouteMarkets)-before)
		}
	})
	t.Run("holders of a market nobody holds: an empty list", func(t *testing.T) {
		out := call[tools.HoldersOut](t, s, "get_top_holders", map[string]any{"condition_id": "0x" + strings.Repeat("ab", 32)})
		if len(out.Outcomes) != 0 || out.Note == "" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("finders match categories from tags; valid ones discoverable", func(t *testing.T) {
		out := call[tools.FoundOut](t, s, "find_trending_markets", map[string]any{"category": "politics", "limit": 5})
		if out.Matched == 0 {
			t.Fatalf("%+v", out)
		}
		out = call[tools.FoundOut](t, s, "find_trending_markets", map[string]any{"category": "astrology"})
		if out.Matched != 0 || len(out.Categories) == 0 || !strings.Contains(strings.Join(out.Categories, ","), "Politics") {
			t.Fatalf("%+v", out.Categories)
		}
	})
	t.Run("a 200 Too Many Requests body is rate_limited and not cached", func(t *testing.T) {
		s.fake.SetFault(fake.Fault{Kind: fake.FaultBusy200, Route: fake.RouteActivity, Count: 1})
		defer s.fake.ClearFaults()
		res := s.conn.Call(t, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": 7})
		b := servetest.ErrorBody(t, res)
		if b.Code != "rate_limited" || !b.Retryable || b.RetryAfterS == nil {
			t.Fatalf("%+v", b)
		}
		out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": 7})
		if len(out.Activity) == 0 || out.Stale {
			t.Fatalf("the error body was kept: %+v", out)
		}
	})
	t.Run("positions carry value, % P&L and page totals", func(t *testing.T) {
		out := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser})
		var sum float64
		for _, p := range out.Positions {
			if p.CurrentValue <= 0 || p.InitialValue <= 0 {
				t.Fatalf("%+v", p)
			}
			sum += p.CurrentValue
		}
		if d := out.Totals.CurrentValue - sum; d > 0.05 || d < -0.05 || out.Totals.Positions != len(out.Positions) || out.More {
			t.Fatalf("totals %+v vs %v", out.Totals, sum)
		}
	})
	t.Run("cache hits do not count against the per-minute limit", func(t *testing.T) {
		ls := start(t, opts{publicMax: 2})
		for i := 0; i < 5; i++ {
			call[tools.MarketOut](t, ls, "get_market", map[string]any{"identifier": id})
		}
	})
	t.Run("identifier errors name the fix and the tool", func(t *testing.T) {
		res := s.conn.Call(t, "get_top_holders", map[string]any{"condition_id": tok[0]})
		if b := servetest.ErrorBody(t, res); b.Code != "invalid_argument" || !strings.Contains(b.Message, "get_market") || !strings.Contains(b.Message, "token id") {
			t.Fatalf("%+v", b)
		}
		m := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": tok[0]}).Market
		if m.ConditionID != cond {
			t.Fatalf("get_market by token id: %+v", m)
		}
	})
	t.Run("dates are RFC 3339, checked before sending", func(t *testing.T) {
		before := s.fake.Count(fake.RouteMarketsKeyset)
		res := s.conn.Call(t, "list_markets", map[string]any{"end_date_min": "yesterday"})
		if b := servetest.ErrorBody(t, res); b.Code != "invalid_argument" || !strings.Contains(b.Message, "RFC 3339") {
			t.Fatalf("%+v", b)
		}
		if s.fake.Count(fake.RouteMarketsKeyset) != before {
			t.Fatal("sent upstream")
		}
	})
}

func mustInt(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
	}
	return n
}
