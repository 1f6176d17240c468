package tools_test

import (
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestEveryTool drives every tool through MCP against the fake in both eras.
func TestEveryTool(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{})
			// Before login every broker tool names the fix.
			body := servetest.ErrorBody(t, e.call("get_order_book", nil))
			if body.Code != "unauthenticated" {
				t.Fatalf("before login: %+v", body)
			}
			e.connect()

			search := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NSE", "search_text": "RELIANCE"}))
			if len(search.List()) == 0 || search.List()[0].Token == "" {
				t.Fatalf("search: %+v", search)
			}
			none := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NSE", "search_text": "ZZZNOSUCH"}))
			if len(none.List()) != 0 {
				t.Fatalf("no-data search: %+v", none)
			}
			q := servetest.Decode[tools.QuoteOut](t, e.call("get_quotes", map[string]any{"exchange": "NSE", "token": "2885"}))
			if q.LastPrice <= 0 || q.TradingSymbol != "RELIANCE-EQ" {
				t.Fatalf("quote: %+v", q)
			}
			ob := servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil))
			if len(ob.Rows) != 0 || len(ob.Cols) == 0 {
				t.Fatalf("fresh order book: %+v", ob)
			}
			placed := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{
				"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "side": "BUY", "quantity": 1,
				"order_type": "LIMIT", "price": 1300, "product": "CNC", "idempotency_key": "test-" + string(era),
			}))
			if placed.OrderID == "" || placed.Outcome != "placed" {
				t.Fatalf("place: %+v", placed)
			}
			ob = servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil))
			if l := ob.List(); len(l) != 1 || l[0].Side != "BUY" || l[0].Exchange != "NSE" || ob.More != nil {
				t.Fatalf("order book: %+v", ob)
			}
			ob = servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", map[string]any{"detail": true}))
			if len(ob.More) != len(ob.Rows) || ob.More[0].IdempotencyKey != "test-"+string(era) || ob.More[0].OrderType != "LIMIT" || ob.More[0].Product != "CNC" {
				t.Fatalf("order book detail: %+v", ob)
			}
			mod := servetest.Decode[tools.OrderAck](t, e.call("modify_order", map[string]any{
				"order_id": placed.OrderID, "exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "quantity": 2, "order_type": "LIMIT", "price": 1310,
			}))
			if mod.Status != "modify_requested" {
				t.Fatalf("modify: %+v", mod)
			}
			can := servetest.Decode[tools.OrderAck](t, e.call("cancel_order", map[string]any{"order_id": placed.OrderID}))
			if can.Status != "cancel_requested" {
				t.Fatalf("cancel: %+v", can)
			}
			gone := servetest.ErrorBody(t, e.call("cancel_order", map[string]any{"order_id": "99999999"}))
			if gone.Code != "not_found" {
				t.Fatalf("cancel unknown: %+v", gone)
			}
			servetest.Decode[tools.TradeBookOut](t, e.call("get_trade_book", nil))
			servetest.Decode[tools.PositionsOut](t, e.call("get_positions", nil))
			h := servetest.Decode[tools.HoldingsOut](t, e.call("get_holdings", nil))
			if l := h.List(); len(l) == 0 || l[0].Quantity <= 0 || l[0].TradingSymbol == "" {
				t.Fatalf("holdings: %+v", h)
			}
			l := servetest.Decode[tools.LimitsOut](t, e.call("get_limits", nil))
			if l.Cash <= 0 {
				t.Fatalf("limits: %+v", l)
			}
			nfo := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NFO", "search_text": "NIFTY"}))
			var opt string
			strike := 25000.0 // the fake's NIFTY spot is about 25012 with 50-point strikes
			for _, in := range nfo.List() {
				if in.OptionType == "CE" {
					opt = in.TradingSymbol
					break
				}
			}
			if opt == "" {
				t.Fatalf("no NIFTY option in %+v", nfo)
			}
			chain := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": opt, "strike_price": strike, "strike_count": 3}))
			if len(chain.Rows) == 0 || chain.Legs == 0 {
				t.Fatalf("chain: %+v", chain)
			}
			for _, r := range chain.Rows {
				if r.Call == nil || r.Put == nil || r.Call.QuoteError != "" || r.Call.LastPrice <= 0 {
					t.Fatalf("chain row %+v (call %+v put %+v)", r, r.Call, r.Put)
				}
			}
			from := fake.LastSession(clock.MustFromEnv().Now()).Format("2006-01-02")
			intraday := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885", "interval": "5", "from": from}))
			daily := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885", "interval": "day",
				"from": clock.MustFromEnv().Now().AddDate(0, -2, 0).Format("2006-01-02")}))
			if len(daily.Candles) == 0 {
				t.Fatalf("daily candles: %+v", daily)
			}
			for _, c := range intraday.Candles {
				if _, err := time.Parse(time.RFC3339, c.Time); err != nil || c.High < c.Low {
					t.Fatalf("candle %+v", c)
				}
			}
			for _, c := range daily.Candles { // a daily bar is its trade date
				if _, err := time.Parse("2006-01-02", c.Time); err != nil || c.High < c.Low {
					t.Fatalf("daily candle %+v", c)
				}
			}
			sub := servetest.Decode[tools.FeedOut](t, e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885"}}))
			if len(sub.ResourceURIs) != 1 {
				t.Fatalf("subscribe: %+v", sub)
			}
			unsub := servetest.Decode[tools.FeedOut](t, e.call("unsubscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885"}}))
			if len(unsub.Touchline) != 0 {
				t.Fatalf("unsubscribe: %+v", unsub)
			}
		})
	}
}
