package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// The real APIs' rules as they answer today (each rule's public source is
// cited where the fake implements it), one subtest per way a user met them.
func TestRealAPIRules(t *testing.T) {
	s := start(t, opts{})
	id, _, cond, tok := s.fake.Market(3)
	_, _, _, closedTok := s.fake.Market(fake.NumOpen)

	t.Run("comments for a market are its event's, asked with Event", func(t *testing.T) {
		out := obj(t, s, "list_comments", map[string]any{"entity_type": "market", "entity_id": mustInt(t, id)})
		if len(list(out["comments"])) == 0 || !strings.Contains(str(out["resolved_to"]), "event 900000") {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("price history 1m and 1w get Polymarket's fidelity floor", func(t *testing.T) {
		for _, iv := range []string{"1m", "1w"} {
			out := obj(t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": iv, "fidelity": 1})
			if len(list(out["points"])) == 0 || !strings.Contains(str(out["note"]), "fidelity raised") {
				t.Fatalf("%s: %+v", iv, out["note"])
			}
			out = obj(t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": iv})
			if len(list(out["points"])) == 0 {
				t.Fatalf("%s without fidelity: %+v", iv, out["note"])
			}
		}
	})
	t.Run("a window over 15 days is read in chunks and joined", func(t *testing.T) {
		now := clock.MustFromEnv().Now().Unix() // the fake's and the server's clock
		out := obj(t, s, "get_price_history", map[string]any{"token_id": tok[0], "start_ts": now - 25*86400, "end_ts": now})
		pts := list(out["points"])
		if len(pts) == 0 || !strings.Contains(str(out["note"]), "2 windows") {
			t.Fatalf("%+v", out["note"])
		}
		res := s.conn.Call(t, "get_price_history", map[string]any{"token_id": tok[0], "start_ts": now * 1000})
		if b := servetest.ErrorBody(t, res); b.Code != "invalid_argument" || !strings.Contains(b.Message, "milliseconds") {
			t.Fatalf("%+v", b)
		}
		for i := 1; i < len(pts); i++ {
			if num(list(pts[i])[0]) <= num(list(pts[i-1])[0]) {
				t.Fatalf("points out of order or repeated at %d", i)
			}
		}
	})
	t.Run("a resolved market's history comes from before closedTime", func(t *testing.T) {
		out := obj(t, s, "get_price_history", map[string]any{"token_id": closedTok[0], "interval": "1w"})
		if len(list(out["points"])) == 0 || !strings.Contains(str(out["note"]), "before it closed") {
			t.Fatalf("%+v", out["note"])
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
			out := obj(t, s, "list_markets", args)
			for _, m := range list(out["markets"]) {
				seenClosed = seenClosed || str(mapOf(m)["state"]) == "closed"
			}
			if cur = str(out["next_cursor"]); cur == "" {
				break
			}
		}
		if !seenClosed || s.fake.Count(fake.RouteMarkets) != before {
			t.Fatalf("closed seen %v, /markets requests %d", seenClosed, s.fake.Count(fake.RouteMarkets)-before)
		}
	})
	t.Run("holders of a market nobody holds: an empty list", func(t *testing.T) {
		out := obj(t, s, "get_top_holders", map[string]any{"condition_id": "0x" + strings.Repeat("ab", 32)})
		if len(list(out["outcomes"])) != 0 || str(out["note"]) == "" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("finders match categories from tags; valid ones discoverable", func(t *testing.T) {
		out := obj(t, s, "find_trending_markets", map[string]any{"category": "politics", "limit": 5})
		if num(out["matched"]) == 0 {
			t.Fatalf("%+v", out)
		}
		m := mapOf(obj(t, s, "get_market", map[string]any{"identifier": id, "detail": "full"})["market"])
		if str(m["category"]) == "" {
			t.Fatalf("get_market detail=full has no category: %+v", m)
		}
		out = obj(t, s, "find_trending_markets", map[string]any{"category": "astrology"})
		if num(out["matched"]) != 0 || !strings.Contains(fmt.Sprint(out["categories"]), "Politics") {
			t.Fatalf("%+v", out["categories"])
		}
	})
	t.Run("a 200 Too Many Requests body is rate_limited and not cached", func(t *testing.T) {
		s.fake.SetFault(fake.Fault{Kind: "busy200", Route: fake.RouteActivity, Count: 1})
		defer s.fake.ClearFaults()
		res := s.conn.Call(t, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": 7})
		b := servetest.ErrorBody(t, res)
		if b.Code != "rate_limited" || !b.Retryable || b.RetryAfterS == nil {
			t.Fatalf("%+v", b)
		}
		out := obj(t, s, "get_user_activity", map[string]any{"user": fake.KnownUser, "limit": 7})
		if len(list(out["activity"])) == 0 || out["stale"] == true {
			t.Fatalf("the error body was kept: %+v", out)
		}
	})
	t.Run("positions carry value, % P&L and page totals", func(t *testing.T) {
		out := obj(t, s, "get_user_positions", map[string]any{"user": fake.KnownUser})
		var sum float64
		for _, p := range list(out["positions"]) {
			p := mapOf(p)
			if num(p["current_value"]) <= 0 || num(p["initial_value"]) <= 0 || p["percent_pnl"] == nil {
				t.Fatalf("%+v", p)
			}
			sum += num(p["current_value"])
		}
		tot := mapOf(out["totals"])
		if d := num(tot["current_value"]) - sum; tot == nil || d > 0.05 || d < -0.05 || int(num(tot["positions"])) != len(list(out["positions"])) ||
			tot["cash_pnl"] == nil || tot["initial_value"] == nil || out["more"] != false {
			t.Fatalf("totals %+v vs %v", out, sum)
		}
	})
	t.Run("cache hits do not count against the per-minute limit", func(t *testing.T) {
		ls := start(t, opts{publicMax: 2})
		for i := 0; i < 5; i++ {
			obj(t, ls, "get_market", map[string]any{"identifier": id})
		}
	})
	t.Run("identifier errors name the fix and the tool", func(t *testing.T) {
		res := s.conn.Call(t, "get_top_holders", map[string]any{"condition_id": tok[0]})
		if b := servetest.ErrorBody(t, res); b.Code != "invalid_argument" || !strings.Contains(b.Message, "get_market") || !strings.Contains(b.Message, "token id") {
			t.Fatalf("%+v", b)
		}
		m := mapOf(obj(t, s, "get_market", map[string]any{"identifier": tok[0]})["market"])
		if str(m["condition_id"]) != cond {
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

// obj calls a tool and decodes its structured result as plain JSON, so the
// checks read fields by name (and hold for any Go shape of the result).
func obj(t *testing.T, s *setup, tool string, args map[string]any) map[string]any {
	t.Helper()
	return call[map[string]any](t, s, tool, args)
}

func str(v any) string           { x, _ := v.(string); return x }
func num(v any) float64          { x, _ := v.(float64); return x }
func list(v any) []any           { x, _ := v.([]any); return x }
func mapOf(v any) map[string]any { x, _ := v.(map[string]any); return x }

func mustInt(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
	}
	return n
}
