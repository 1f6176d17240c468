package tools_test

import (
	"math"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestPaperSession: with SHOONYA_TRADING=paper a session of place, modify,
// cancel and the books on two replicas sharing Redis works, every result
// says paper, the book is shared, and 0 requests reach the order routes.
func TestPaperSession(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			rs := redistest.StartServer(t)
			rep, proxy := newReplicas(t, era, 2, redisURLOf(rs), map[string]string{"SHOONYA_TRADING": "paper", "SHOONYA_CONFIRM_ORDERS": "require"})
			a, b := rep[0], rep[1]
			// A marketable order fills at the live quote; one far below stays open.
			mkt := servetest.Decode[tools.PlaceOut](t, a.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
				"side": "BUY", "quantity": 10, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "paper-mkt"}))
			if mkt.Mode != "paper" || mkt.Outcome != "placed" || !strings.HasPrefix(mkt.OrderID, "P") || !strings.Contains(mkt.Next, "filled") {
				t.Fatalf("market: %+v", mkt)
			}
			again := servetest.Decode[tools.PlaceOut](t, b.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
				"side": "BUY", "quantity": 10, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "paper-mkt"}))
			if again.Outcome != "already_placed" || again.OrderID != mkt.OrderID {
				t.Fatalf("same key on the other replica: %+v", again)
			}
			low := servetest.Decode[tools.PlaceOut](t, a.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
				"side": "BUY", "quantity": 5, "order_type": "LIMIT", "price": math.Round(mkt.Price*0.9*20) / 20, "product": "INTRADAY", "idempotency_key": "paper-low"}))
			if low.Mode != "paper" || !strings.Contains(low.Next, "open") {
				t.Fatalf("low limit: %+v", low)
			}
			ob := servetest.Decode[tools.OrderBookOut](t, b.call("get_order_book", nil))
			if l := ob.List(); len(l) != 2 || l[0].Status != "COMPLETE" || l[1].Status != "OPEN" {
				t.Fatalf("paper order book on replica B: %+v", l)
			}
			mod := servetest.Decode[tools.ModifyAck](t, b.call("modify_order", map[string]any{"order_id": low.OrderID, "quantity": 6}))
			if !strings.Contains(mod.Next, "PAPER") {
				t.Fatalf("modify: %+v", mod)
			}
			if ack := servetest.Decode[tools.OrderAck](t, a.call("cancel_order", map[string]any{"order_id": low.OrderID})); ack.Status != "cancelled" {
				t.Fatalf("cancel: %+v", ack)
			}
			pos := servetest.Decode[tools.PositionsOut](t, a.call("get_positions", nil))
			if len(pos.Positions) != 1 || pos.Positions[0].NetQuantity != 10 {
				t.Fatalf("positions: %+v", pos)
			}
			for _, tool := range []string{"get_positions", "get_trade_book", "get_holdings", "get_limits", "get_order_book"} {
				res := b.call(tool, nil)
				if !strings.Contains(servetest.ResultJSON(res), `"mode":"paper"`) {
					t.Errorf("%s does not say paper: %s", tool, servetest.ResultJSON(res))
				}
			}
			for _, route := range []string{"PlaceOrder", "ModifyOrder", "CancelOrder"} {
				if n := proxy.count(route); n != 0 {
					t.Errorf("%d requests reached %s in paper mode", n, route)
				}
			}
			if n := len(a.fake.Ledger()); n != 0 {
				t.Errorf("the broker's ledger has %d orders", n)
			}
		})
	}
}
