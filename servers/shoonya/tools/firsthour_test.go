package tools_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// What a new user meets in the first hour, each through MCP against the fake.

// noValueLimit lifts the default ₹5 lakh order-value limit for F&O orders.
var noValueLimit = map[string]string{"SHOONYA_MAX_ORDER_VALUE": "0"}

// niftyFuture is the fake's NIFTY future (lot 65) and its last price.
func niftyFuture(t *testing.T, e *env) (tools.Instrument, float64) {
	t.Helper()
	for _, in := range servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NFO", "search_text": "NIFTY"})).List() {
		if strings.HasPrefix(in.TradingSymbol, "NIFTY") && strings.HasSuffix(in.TradingSymbol, "F") {
			q := servetest.Decode[tools.QuoteOut](t, e.call("get_quotes", map[string]any{"exchange": "NFO", "token": in.Token}))
			return in, q.LastPrice
		}
	}
	t.Fatal("no NIFTY future in the fake's master")
	return tools.Instrument{}, 0
}

// An NFO order of 10 for a lot of 65 is refused with the lot size and the
// nearest valid quantities, and nothing reaches the broker (which would
// reject it: "Quantity should be multiple of lot size").
func TestLotSizeCheckedBeforeSending(t *testing.T) {
	rich := fake.DemoAccount()
	rich.Cash = 10_000_000 // two NIFTY lots carried overnight need more than the demo's cash (the margin check)
	e := newEnv(t, noren.OAuth, envOpt{extra: noValueLimit, account: &rich})
	e.connect()
	fut, lp := niftyFuture(t, e)
	if fut.LotSize != 65 {
		t.Fatalf("lot %v", fut.LotSize)
	}
	order := func(qty int) map[string]any {
		return map[string]any{"exchange": "NFO", "trading_symbol": fut.TradingSymbol, "side": "BUY", "quantity": qty,
			"order_type": "LIMIT", "price": lp, "product": "NORMAL"}
	}
	for _, c := range []struct {
		qty   int
		valid []any
	}{{10, []any{65.0}}, {100, []any{65.0, 130.0}}} {
		b := servetest.ErrorBody(t, e.call("place_order", order(c.qty)))
		if b.Code != envelope.InvalidArgument || b.Details["field"] != "quantity" || b.Details["lot_size"] != 65.0 ||
			!strings.Contains(b.Message, "lot size 65") || len(b.Details["valid_quantities"].([]any)) != len(c.valid) {
			t.Fatalf("%d: %+v", c.qty, b)
		}
		for i, v := range c.valid {
			if b.Details["valid_quantities"].([]any)[i] != v {
				t.Fatalf("%d: valid %v, want %v", c.qty, b.Details["valid_quantities"], c.valid)
			}
		}
	}
	if n := len(e.fake.Ledger()); n != 0 {
		t.Fatalf("%d orders reached the broker", n)
	}
	if p := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(130))); p.Outcome != "placed" {
		t.Fatalf("%+v", p)
	}
}

// modify_order {"order_id", "price"} takes the rest from the open order; the
// modify is sent once and the lot size is checked there too.
func TestPartialModify(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{cfg: fake.Config{TickInterval: -1}, extra: noValueLimit})
	e.connect()
	fut, lp := niftyFuture(t, e)
	placed := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NFO", "trading_symbol": fut.TradingSymbol,
		"side": "BUY", "quantity": 65, "order_type": "LIMIT", "price": lp - 50, "product": "INTRADAY"}))
	newPx := lp - 40
	mod := servetest.Decode[tools.ModifyAck](t, e.call("modify_order", map[string]any{"order_id": placed.OrderID, "price": newPx}))
	want := "LIMIT " + fut.TradingSymbol + " 65 @ " + strconv.FormatFloat(newPx, 'f', 2, 64)
	if mod.Status != "modify_requested" || mod.Sent != want {
		t.Fatalf("%+v, want sent %q", mod, want)
	}
	ob := servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil)).List()
	if len(ob) != 1 || ob[0].Price != newPx || ob[0].Quantity != 65 {
		t.Fatalf("order book after modify: %+v", ob)
	}
	if b := servetest.ErrorBody(t, e.call("modify_order", map[string]any{"order_id": placed.OrderID, "quantity": 100})); b.Details["lot_size"] != 65.0 {
		t.Fatalf("%+v", b)
	}
	if b := servetest.ErrorBody(t, e.call("modify_order", map[string]any{"order_id": "99999999", "price": newPx})); b.Code != envelope.NotFound {
		t.Fatalf("%+v", b)
	}
	e.call("cancel_order", map[string]any{"order_id": placed.OrderID})
	if b := servetest.ErrorBody(t, e.call("modify_order", map[string]any{"order_id": placed.OrderID, "price": newPx})); b.Code != envelope.Conflict {
		t.Fatalf("%+v", b)
	}
}

// A MARKET order goes as a protective LIMIT; price_sent is the price as it
// went on the wire (1306.60), not the float 1306.6000000000001.
func TestPriceSentAsOnTheWire(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{cfg: fake.Config{TickInterval: -1}})
	e.connect()
	if err := e.fake.SetPrice("NSE", "2885", 1300.05); err != nil {
		t.Fatal(err)
	}
	p := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ",
		"side": "BUY", "quantity": 1, "order_type": "MARKET", "product": "CNC"}))
	if p.Price != 1306.6 || strconv.FormatFloat(p.Price, 'f', -1, 64) != "1306.6" {
		t.Fatalf("price_sent %v (%s)", p.Price, p.Converted)
	}
	l := e.fake.Ledger()
	if len(l) != 1 || l[0].Fields["prc"] != "1306.60" {
		t.Fatalf("wire: %+v", l)
	}
}

// Exchange codes are case-insensitive everywhere, enums and feed keys alike.
func TestExchangeCaseInsensitive(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	if q := servetest.Decode[tools.QuoteOut](t, e.call("get_quotes", map[string]any{"exchange": "nse", "token": "2885"})); q.TradingSymbol != "RELIANCE-EQ" {
		t.Fatalf("%+v", q)
	}
	if l := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": " Nfo", "search_text": "NIFTY"})).List(); len(l) == 0 {
		t.Fatal("no search results")
	}
	sub := servetest.Decode[tools.FeedOut](t, e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"nse|2885"}}))
	if len(sub.Touchline) != 1 || sub.Touchline[0] != "NSE|2885" {
		t.Fatalf("%+v", sub)
	}
}

// unsubscribe_market_feeds all=true stops every subscription.
func TestUnsubscribeAll(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885", "NSE|1594"}})
	e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|11536"}, "depth": true})
	out := servetest.Decode[tools.FeedOut](t, e.call("unsubscribe_market_feeds", map[string]any{"all": true}))
	if len(out.Touchline) != 0 || len(out.Depth) != 0 {
		t.Fatalf("%+v", out)
	}
	if b := servetest.ErrorBody(t, e.call("unsubscribe_market_feeds", map[string]any{})); b.Code != envelope.InvalidArgument {
		t.Fatalf("%+v", b)
	}
}

// Holdings carry last price, value, P&L and percent, with totals.
func TestHoldingsValuedFromQuotes(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{cfg: fake.Config{TickInterval: -1}})
	e.connect()
	if err := e.fake.SetPrice("NSE", "2885", 1300); err != nil {
		t.Fatal(err)
	}
	h := servetest.Decode[tools.HoldingsOut](t, e.call("get_holdings", nil))
	var rel tools.HoldingRow
	for _, r := range h.List() {
		if r.TradingSymbol == "RELIANCE-EQ" {
			rel = r
		}
	}
	// The fake's demo account holds 10 RELIANCE-EQ at 1250.40.
	if rel.LastPrice != 1300 || rel.Value != 13000 || rel.PnL != 496 || rel.PnLPct != 3.97 {
		t.Fatalf("%+v", rel)
	}
	var inv, val float64
	for _, r := range h.List() {
		inv += r.Quantity * r.AveragePrice
		val += r.Value
	}
	if h.Totals.Unpriced != 0 || h.Totals.Value != math.Round(val*100)/100 || h.Totals.Invested != math.Round(inv*100)/100 ||
		h.Totals.PnL != math.Round((val-inv)*100)/100 {
		t.Fatalf("totals %+v (invested %v value %v)", h.Totals, inv, val)
	}
}

// get_option_chain with an underlying's name uses its nearest expiry; a name
// with no derivatives is refused naming the symbol forms to use.
func TestOptionChainFromUnderlyingName(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	out := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "nifty", "strike_price": 25000, "strike_count": 2}))
	if len(out.Rows) != 4 || out.Legs != 8 || !strings.HasPrefix(out.Contract, "NIFTY") {
		t.Fatalf("%+v", out)
	}
	b := servetest.ErrorBody(t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NOSUCHNAME", "strike_price": 100}))
	if b.Code != envelope.NotFound || !strings.Contains(b.Message, "search_scrip") || !strings.Contains(b.Message, "NIFTY28NOV24F") {
		t.Fatalf("%+v", b)
	}
}

// Intraday candles older than the broker keeps (about a year) are refused
// up front, naming it and interval day, and not as a retryable outage.
func TestCandleWindowRefusedUpFront(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	now := clock.MustFromEnv().Now().In(tools.IST)
	b := servetest.ErrorBody(t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885", "interval": "5",
		"from": now.AddDate(-2, 0, 0).Format("2006-01-02"), "to": now.AddDate(-1, -1, 0).Format("2006-01-02")}))
	if b.Code != envelope.InvalidArgument || b.Retryable || !strings.Contains(b.Message, "about a year") || !strings.Contains(b.Message, "interval day") {
		t.Fatalf("%+v", b)
	}
}
