package tools_test

import (
	"math"
	"regexp"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// negativeZero finds a -0 printed as a number ("-0", "-0.0", "-0.00").
var negativeZero = regexp.MustCompile(`[:\[,]-0(\.0+)?[,\]}]`)

// TestBooksCarryWhatUsersAsk: trade-book rows carry the exchange and the
// fill value; positions carry totals and the total percentage; a flat
// position (Noren prints its P&L as -0.00) shows 0, never -0. Both eras.
func TestBooksCarryWhatUsersAsk(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{})
			e.connect()
			fill := func(args map[string]any, px float64) {
				t.Helper()
				out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", args))
				if err := e.fake.FillOrder(out.OrderID, px); err != nil {
					t.Fatal(err)
				}
			}
			ord := func(sym, side string, qty int, price float64, key string) map[string]any {
				return map[string]any{"exchange": "NSE", "trading_symbol": sym, "side": side, "quantity": qty,
					"order_type": "LIMIT", "price": price, "product": "INTRADAY", "idempotency_key": key}
			}
			fill(ord("SBIN-EQ", "BUY", 10, 700, "bk-buy"), 700)
			fill(ord("SBIN-EQ", "SELL", 10, 900, "bk-sell"), 700) // flat: Noren prints its legs as -0.00
			fill(ord("TCS-EQ", "BUY", 3, 3000, "bk-tcs"), 3000)

			tb := servetest.Decode[tools.TradeBookOut](t, e.call("get_trade_book", nil))
			trades := tb.List()
			if len(trades) != 3 {
				t.Fatalf("trade book: %+v", tb)
			}
			for _, tr := range trades {
				if tr.Exchange != "NSE" || tr.FillValue == 0 || math.Abs(tr.FillValue-math.Round(tr.FillQuantity*tr.FillPrice*100)/100) > 1e-9 {
					t.Errorf("trade row without exchange or fill value: %+v", tr)
				}
			}

			res := e.call("get_positions", nil)
			if js := servetest.ResultJSON(res); negativeZero.MatchString(js) {
				t.Errorf("positions print -0: %s", js)
			}
			pos := servetest.Decode[tools.PositionsOut](t, res)
			if len(pos.Positions) != 2 {
				t.Fatalf("positions: %+v", pos)
			}
			var r, u float64
			for _, p := range pos.Positions {
				r += p.RealisedPnL
				u += p.UnrealisedPnL
				if p.TradingSymbol == "SBIN-EQ" && (p.NetQuantity != 0 || p.UnrealisedPnL != 0 || p.PnL != 0 || p.PnLPct != 0 || math.Signbit(p.PnL) || math.Signbit(p.UnrealisedPnL)) {
					t.Errorf("flat SBIN: %+v", p)
				}
			}
			round := func(v float64) float64 { return math.Round(v*100) / 100 }
			if pos.RealisedPnL != round(r) || pos.UnrealisedPnL != round(u) || pos.PnL != round(pos.RealisedPnL+pos.UnrealisedPnL) {
				t.Fatalf("totals do not add up: %+v", pos)
			}
			// The percentage is of the value bought: 10 × 700 + 3 × 3000.
			if want := round(100 * pos.PnL / 16000); pos.PnLPct != want || (pos.PnL != 0 && pos.PnLPct == 0) {
				t.Fatalf("total_pnl_percent %v, want %v (pnl %v)", pos.PnLPct, want, pos.PnL)
			}
		})
	}
}
