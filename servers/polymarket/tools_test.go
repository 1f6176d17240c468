package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

func call[T any](t *testing.T, s *setup, tool string, args map[string]any) T {
	t.Helper()
	res := s.conn.Call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s(%v): %+v", tool, args, servetest.ErrorBody(t, res))
	}
	return servetest.Decode[T](t, res)
}

func TestMarketsTools(t *testing.T) {
	s := start(t, opts{})
	id, slug, cond, tok := s.fake.Market(3)

	t.Run("get_market by id, slug and conditionId", func(t *testing.T) {
		for _, ident := range []string{id, slug, cond} {
			out := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": ident, "detail": "full"})
			m := out.Market
			if m.ID != id || m.Slug != slug || m.ConditionID != cond || len(m.Outcomes) != 2 {
				t.Fatalf("%s: %+v", ident, m)
			}
			if m.Outcomes[0].Name != "Yes" || m.Outcomes[0].TokenID != tok[0] || m.Outcomes[1].TokenID != tok[1] ||
				m.Outcomes[0].Price <= 0 || m.Volume == nil || *m.Volume <= 0 || m.BestAsk == nil {
				t.Fatalf("%s: outcomes/numbers not decoded: %+v", ident, m)
			}
		}
	})
	t.Run("get_market decodes the live fixture market", func(t *testing.T) {
		m := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": "1066851", "detail": "compact"}).Market
		if m.Outcomes[0].Name != "Up" || m.Outcomes[0].Price != 0.585 || *m.Volume != 92509.470055 || *m.Liquidity != 20579.7452 ||
			!strings.HasPrefix(m.Outcomes[1].TokenID, "1018185981923541224") || m.State != "active" || m.BestBid != nil {
			t.Fatalf("%+v", m)
		}
	})
	t.Run("get_market fields picks a subset", func(t *testing.T) {
		m := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": id, "fields": []string{"question", "outcomes"}}).Market
		if m.Question == "" || len(m.Outcomes) != 2 || m.Slug != "" || m.Volume != nil || m.Description != "" {
			t.Fatalf("%+v", m)
		}
	})
	t.Run("unknown market is not_found, bad identifier refused before any request", func(t *testing.T) {
		res := s.conn.Call(t, "get_market", map[string]any{"identifier": "no-such-market"})
		if b := servetest.ErrorBody(t, res); b.Code != "not_found" || !strings.Contains(b.Message, "search_markets") {
			t.Fatalf("%+v", b)
		}
		before := s.fake.Count(fake.RouteMarket) + s.fake.Count(fake.RouteMarkets)
		res = s.conn.Call(t, "get_market", map[string]any{"identifier": "Robert'); DROP"})
		if b := servetest.ErrorBody(t, res); b.Code != "invalid_argument" || !strings.Contains(b.Message, "slug") {
			t.Fatalf("%+v", b)
		}
		if after := s.fake.Count(fake.RouteMarket) + s.fake.Count(fake.RouteMarkets); after != before {
			t.Fatalf("a request was sent for a bad identifier")
		}
	})
	t.Run("list_markets compact by default", func(t *testing.T) {
		out := call[tools.MarketsOut](t, s, "list_markets", map[string]any{"limit": 5})
		if len(out.Markets) != 5 || out.NextCursor == "" {
			t.Fatalf("%+v", out)
		}
		for i, m := range out.Markets {
			if m.State != "active" || m.BestBid != nil || len(m.Description) > 160 {
				t.Fatalf("market %d not compact/open: %+v", i, m)
			}
			if i > 0 && *m.Volume24h > *out.Markets[i-1].Volume24h {
				t.Fatalf("not ordered by volume_24h")
			}
		}
	})
	t.Run("list_events and get_event summarise nested markets", func(t *testing.T) {
		out := call[tools.EventsOut](t, s, "list_events", map[string]any{"limit": 3})
		if len(out.Events) != 3 || out.NextCursor == "" {
			t.Fatalf("%+v", out)
		}
		for _, e := range out.Events {
			if len(e.Markets) != 3 || e.MarketsTotal != fake.PerEvent || e.Volume <= 0 {
				t.Fatalf("%+v", e)
			}
		}
		ev := call[tools.EventOut](t, s, "get_event", map[string]any{"identifier": "fake-event-2", "markets_limit": 4}).Event
		if ev.ID != "900002" || len(ev.Markets) != 4 || ev.MarketsTotal != 10 || *ev.Markets[0].Volume < *ev.Markets[1].Volume {
			t.Fatalf("%+v", ev)
		}
		res := s.conn.Call(t, "get_event", map[string]any{"identifier": "999999999"})
		if b := servetest.ErrorBody(t, res); b.Code != "not_found" {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("search_markets: no match is empty, suggestions apart, a failure an error", func(t *testing.T) {
		out := call[tools.SearchOut](t, s, "search_markets", map[string]any{"query": "fake outcome 4", "limit": 3})
		if len(out.Events) == 0 || len(out.Markets) == 0 || out.NoMatch != "" || out.Suggestions != nil {
			t.Fatalf("%+v", out)
		}
		out = call[tools.SearchOut](t, s, "search_markets", map[string]any{"query": "zzzz nothing"})
		if len(out.Events) != 0 || len(out.Markets) != 0 || !strings.Contains(out.NoMatch, "no match") || len(out.Suggestions) == 0 {
			t.Fatalf("%+v", out)
		}
		s.fake.SetFault(fake.Fault{Kind: fake.Fault500, Route: fake.RouteSearch})
		defer s.fake.ClearFaults()
		res := s.conn.Call(t, "search_markets", map[string]any{"query": "other words"})
		if b := servetest.ErrorBody(t, res); b.Code != "upstream_error" {
			t.Fatalf("%+v", b)
		}
	})
}

func TestOrderbookTools(t *testing.T) {
	s := start(t, opts{})
	_, _, _, tok := s.fake.Market(5)
	_, _, _, closed := s.fake.Market(fake.NumOpen + 1)
	t.Run("books: best bid = max, best ask = min, band sizes", func(t *testing.T) {
		out := call[tools.BooksOut](t, s, "get_order_books", map[string]any{"token_ids": []string{tok[0], tok[1], closed[0]}, "depth": 2})
		if len(out.Books) != 2 || len(out.Missing) != 1 || out.Missing[0] != closed[0] {
			t.Fatalf("%+v", out)
		}
		b := out.Books[0]
		if b.BestBid == nil || b.BestAsk == nil || *b.BestBid >= *b.BestAsk || b.Bids[0][0] != *b.BestBid || b.Asks[0][0] != *b.BestAsk ||
			len(b.Bids) != 2 || b.Bids[1][0] >= b.Bids[0][0] || b.Asks[1][0] <= b.Asks[0][0] || b.Warning != "" {
			t.Fatalf("%+v", b)
		}
		if *b.Spread < 0.0099 || *b.Spread > 0.0101 || b.BidSize != 100+150 || b.AskSize != 80+120 {
			t.Fatalf("spread %v, band sizes %v/%v", *b.Spread, b.BidSize, b.AskSize)
		}
		one := call[tools.BooksOut](t, s, "get_order_books", map[string]any{"token_ids": []string{tok[0]}})
		if len(one.Books) != 1 || *one.Books[0].BestBid != *b.BestBid {
			t.Fatalf("%+v", one)
		}
		gone := call[tools.BooksOut](t, s, "get_order_books", map[string]any{"token_ids": []string{closed[1]}})
		if len(gone.Books) != 0 || len(gone.Missing) != 1 {
			t.Fatalf("%+v", gone)
		}
	})
	t.Run("prices: BUY is the best bid, SELL the best ask", func(t *testing.T) {
		out := call[tools.PricesOut](t, s, "get_prices", map[string]any{"token_ids": []string{tok[0], closed[0]}})
		bk := call[tools.BooksOut](t, s, "get_order_books", map[string]any{"token_ids": []string{tok[0]}}).Books[0]
		if len(out.Prices) != 1 || *out.Prices[0].Bid != *bk.BestBid || *out.Prices[0].Ask != *bk.BestAsk || len(out.Missing) != 1 {
			t.Fatalf("%+v vs book %+v", out, bk)
		}
		sell := call[tools.PricesOut](t, s, "get_prices", map[string]any{"token_ids": []string{tok[1]}, "side": "SELL"})
		if sell.Prices[0].Bid != nil || sell.Prices[0].Ask == nil {
			t.Fatalf("%+v", sell)
		}
	})
	t.Run("price history: thinned points; a resolved market read before it closed", func(t *testing.T) {
		out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": "1w", "fidelity": 60, "max_points": 50})
		if len(out.Points) != 50 || *out.Min > *out.Max || *out.First <= 0 || !strings.Contains(out.Note, "thinned") {
			t.Fatalf("%d points, %+v", len(out.Points), out.Note)
		}
		out = call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": closed[0], "interval": "1d"})
		if len(out.Points) == 0 || !strings.Contains(out.Note, "before it closed") || len(out.Window) != 2 {
			t.Fatalf("%+v", out.Note)
		}
		// interval with start_ts is no error (Polymarket accepts the pair; the timestamps set the window)
		out = call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": "1d", "start_ts": clock.MustFromEnv().Now().Unix() - 3600})
		if len(out.Points) == 0 || len(out.Window) != 2 {
			t.Fatalf("%+v", out.Note)
		}
	})
}

func TestUserTools(t *testing.T) {
	s := start(t, opts{})
	_, _, cond, _ := s.fake.Market(0)
	t.Run("positions", func(t *testing.T) {
		out := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser})
		if len(out.Positions) != 3 || out.Positions[0].Size <= 0 || out.Positions[0].TokenID == "" || out.Positions[0].Slug == "" || out.NextCursor != "" {
			t.Fatalf("%+v", out)
		}
		none := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": "0x" + strings.Repeat("a", 40)})
		if len(none.Positions) != 0 {
			t.Fatalf("%+v", none)
		}
		paged := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "limit": 2})
		if len(paged.Positions) != 2 || paged.NextCursor == "" {
			t.Fatalf("%+v", paged)
		}
		rest := call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "limit": 2, "cursor": paged.NextCursor})
		if len(rest.Positions) != 1 || rest.NextCursor != "" {
			t.Fatalf("%+v", rest)
		}
	})
	t.Run("activity with types", func(t *testing.T) {
		out := call[tools.ActivitiesOut](t, s, "get_user_activity", map[string]any{"user": fake.KnownUser, "types": []string{"TRADE"}})
		if len(out.Activity) != 3 {
			t.Fatalf("%+v", out)
		}
		for _, a := range out.Activity {
			if a.Type != "TRADE" || a.Side != "BUY" && a.Side != "SELL" || a.Time <= 0 {
				t.Fatalf("%+v", a)
			}
		}
	})
	t.Run("bad address refused before any request", func(t *testing.T) {
		before := s.fake.Count(fake.RoutePositions)
		// the handler's check names the fix (a bare regex did not)
		res := s.conn.Call(t, "get_user_positions", map[string]any{"user": "0x1234"})
		if !res.IsError || !strings.Contains(servetest.Text(res), `0x followed by 40 hex digits`) || strings.Contains(servetest.Text(res), "pattern") {
			t.Fatalf("%s", servetest.Text(res))
		}
		if s.fake.Count(fake.RoutePositions) != before {
			t.Fatal("request sent")
		}
	})
	t.Run("holders grouped per outcome token", func(t *testing.T) {
		out := call[tools.HoldersOut](t, s, "get_top_holders", map[string]any{"condition_id": cond, "limit": 2})
		if len(out.Outcomes) != 2 || len(out.Outcomes[0].Rows) != 2 || out.Outcomes[1].Index != 1 || len(out.Cols) != 5 {
			t.Fatalf("%+v", out)
		}
		if r := out.Outcomes[0].Rows[0]; len(r) != 5 || r[2].(float64) <= 0 || !strings.HasPrefix(r[0].(string), "0x") || r[3].(float64) <= 0 {
			t.Fatalf("row %v: want wallet, name, shares, pct_of_listed, verified", r)
		}
		if g := out.Outcomes[0]; g.Holders != 2 || g.Shares != out.Outcomes[0].Rows[0][2].(float64)+out.Outcomes[0].Rows[1][2].(float64) {
			t.Fatalf("totals %+v", g)
		}
	})
	t.Run("comments on an event and a market", func(t *testing.T) {
		out := call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "event", "entity_id": 900001})
		if len(out.Comments) != 3 || out.Comments[0].Author != "Fake-Trader" || out.Comments[0].Wallet != "" {
			t.Fatalf("%+v (a named author's wallet is left out)", out)
		}
		out = call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "market", "entity_id": 2000014})
		if len(out.Comments) != 3 || !strings.Contains(out.ResolvedTo, "event 900001") {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("builder leaderboard pages", func(t *testing.T) {
		out := call[tools.BuildersOut](t, s, "get_builder_leaderboard", map[string]any{"time_period": "WEEK", "limit": 50})
		if len(out.Rows) != 50 || out.Rows[0][0] != 1.0 || len(out.Cols) != len(out.Rows[0]) || out.NextCursor == "" {
			t.Fatalf("%+v", out)
		}
		rest := call[tools.BuildersOut](t, s, "get_builder_leaderboard", map[string]any{"time_period": "WEEK", "limit": 50, "cursor": out.NextCursor})
		if len(rest.Rows) != 50 || rest.Rows[0][0] != 51.0 || rest.NextCursor == "" {
			t.Fatalf("%+v", rest)
		}
	})
}

func TestExtraTools(t *testing.T) {
	s := start(t, opts{})
	t.Run("btc price and its fallback", func(t *testing.T) {
		out := call[tools.BTCOut](t, s, "get_btc_price", nil)
		if out.Price != fake.BTCPrice || out.From != "coinbase" || out.AsOf == "" || out.Fallback != "" {
			t.Fatalf("%+v", out)
		}
		s2 := start(t, opts{})
		s2.fake.SetFault(fake.Fault{Kind: fake.FaultCF403, Route: fake.RouteCoinbase})
		out = call[tools.BTCOut](t, s2, "get_btc_price", nil)
		if out.From != "kraken" || out.Price < 97000 || !strings.Contains(out.Fallback, "Cloudflare") {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("finders", func(t *testing.T) {
		tr := call[tools.FoundOut](t, s, "find_trending_markets", map[string]any{"limit": 5, "scan_limit": 250, "category": "crypto", "min_volume": 10000})
		if len(tr.Markets) != 5 || tr.Scanned != 250 {
			t.Fatalf("%+v", tr)
		}
		for i, m := range tr.Markets {
			if m.Category != "Crypto" || *m.Volume < 10000 || i > 0 && *m.Volume24h > *tr.Markets[i-1].Volume24h {
				t.Fatalf("%+v", m)
			}
		}
		cs := call[tools.FoundOut](t, s, "find_closing_soon", map[string]any{"hours": 10})
		if len(cs.Markets) != 3 || cs.Markets[0].End > cs.Markets[1].End {
			t.Fatalf("%+v", cs) // ends every 3 h from now: 3, 6 and 9 h
		}
		ls := call[tools.FoundOut](t, s, "find_longshots", map[string]any{"max_price": 0.05, "limit": 50})
		if len(ls.Markets) == 0 {
			t.Fatal("no longshots")
		}
		for _, m := range ls.Markets {
			if m.Outcomes[0].Price > 0.05 && m.Outcomes[1].Price > 0.05 {
				t.Fatalf("%+v", m)
			}
		}
		vo := call[tools.FoundOut](t, s, "find_volatile_markets", map[string]any{"limit": 3})
		if len(vo.Markets) != 3 || abs(*vo.Markets[0].Change1d) < abs(*vo.Markets[2].Change1d) || abs(*vo.Markets[0].Change1d) != 0.1 {
			t.Fatalf("%+v", vo)
		}
	})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
