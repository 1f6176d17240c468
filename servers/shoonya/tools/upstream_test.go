package tools_test

// Regression tests against the real Noren's behaviour, not our fake's, and
// for order values, one per behaviour, through MCP.

import (
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// quietEnv is an OAuth env with the random walk off, so prices stay put.
func quietEnv(t *testing.T, cfg fake.Config, extra map[string]string) *env {
	cfg.TickInterval = -1
	cfg.RateLimit.Disabled = true
	e := newEnv(t, noren.OAuth, envOpt{cfg: cfg, extra: extra})
	e.connect()
	return e
}

func order(over map[string]any) map[string]any {
	m := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 800}
	for k, v := range over {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

func lastLedger(t *testing.T, f *fake.Server) fake.LedgerEntry {
	t.Helper()
	l := f.Ledger()
	if len(l) == 0 {
		t.Fatal("nothing reached the broker")
	}
	return l[len(l)-1]
}

func onTick(p, tick float64) bool {
	n := math.Round(p / tick)
	return n >= 1 && math.Abs(n*tick-p) < 1e-9
}

// Item 1: MARKET and SL-M are never sent as MKT/SL-MKT (the OMS accepts, then
// rejects them); they go out as protective LIMIT/SL, and the result says how.
func TestMarketOrdersGoOutAsProtectiveLimits(t *testing.T) {
	e := quietEnv(t, fake.Config{}, nil)
	lp, _ := e.fake.LastPrice("NSE", "3045")
	cases := []struct {
		name, side, typ, sentType, wantType string
		trigger                             float64
		ref                                 float64 // price the protection is taken from
	}{
		{"market buy", "BUY", "MARKET", "LMT", "LIMIT", 0, lp},
		{"market sell", "SELL", "MARKET", "LMT", "LIMIT", 0, lp},
		{"SL-M sell", "SELL", "SL-M", "SL-LMT", "SL", 780, 780},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := order(map[string]any{"side": c.side, "order_type": c.typ, "price": nil, "idempotency_key": "mkt-" + strconv.Itoa(i)})
			if c.trigger > 0 {
				args["trigger_price"] = c.trigger
			}
			out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", args))
			if out.Outcome != "placed" || out.OrderType != c.wantType || out.Converted == "" {
				t.Fatalf("%+v", out)
			}
			// 0.5% band for a ₹500+ equity, rounded outward to the 0.05 tick.
			if c.side == "BUY" && (out.Price < c.ref*1.005-1e-9 || out.Price > c.ref*1.005+0.05) ||
				c.side == "SELL" && (out.Price > c.ref*0.995+1e-9 || out.Price < c.ref*0.995-0.05) || !onTick(out.Price, 0.05) {
				t.Fatalf("protective price %v from %v (%s)", out.Price, c.ref, out.Converted)
			}
			le := lastLedger(t, e.fake)
			if le.Fields["prctyp"] != c.sentType || le.Fields["prc"] != strconv.FormatFloat(out.Price, 'f', 2, 64) {
				t.Fatalf("sent %v", le.Fields)
			}
			if st := e.fake.OrderStatus(out.OrderID); st == fake.StatusRejected {
				t.Fatalf("converted order was rejected")
			}
		})
	}
	// The description states the rule.
	for _, tl := range e.conn.Tools(t) {
		if tl.Name == "place_order" && !strings.Contains(tl.Description, "MARKET/SL-M go as LIMIT/SL") {
			t.Fatalf("description lacks the rule: %s", tl.Description)
		}
	}
	if n := len(e.fake.Ledger()); n != len(cases) {
		t.Fatalf("ledger %d", n)
	}
}

// A fresh account's empty order book answers Noren's "no data" (ShoonyaApi-py
// README PositionBook sample; the fake's default): the first order goes out.
// Any other Not_Ok on that read is a refusal, not "no order yet": place_order
// sends nothing and says why, with the broker's words.
func TestFirstOrderOnAnEmptyBook(t *testing.T) {
	e := quietEnv(t, fake.Config{}, nil)
	if ob := servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil)); len(ob.Rows) != 0 || ob.Empty == "" || !ob.Complete {
		t.Fatalf("%+v", ob)
	}
	out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"idempotency_key": "first-1"})))
	if out.Outcome != "placed" || e.fake.OrdersWithRemarks("first-1") != 1 {
		t.Fatalf("%+v", out)
	}
	for _, f := range []fake.Fault{
		{Kind: fake.FaultRefuse, Body: "Error Occurred : 7 \"some unpublished text\"", Times: 1},
		{Kind: fake.FaultRefuse, Body: fake.EmsgJDataInvalid, Times: 1},
		{Kind: fake.FaultSessionExpired, Times: 1},
	} {
		e.fake.SetFault("OrderBook", f)
		body := servetest.ErrorBody(t, e.call("place_order", order(map[string]any{"idempotency_key": "first-2"})))
		switch {
		case f.Kind == fake.FaultSessionExpired && body.Code != envelope.Unauthenticated,
			f.Kind == fake.FaultRefuse && (!strings.Contains(body.Message, "nothing was sent") || body.Details["broker_message"] != f.Body):
			t.Fatalf("%s: %+v", f.Kind, body)
		}
		if n := e.fake.OrdersWithRemarks("first-2"); n != 0 {
			t.Fatalf("%s: sent %d orders without reading the book", f.Kind, n)
		}
	}
}

// Item 4: COVER and BRACKET take stop_loss/target (and trailing_stop),
// checked against side and entry, sent as blprc/bpprc/trailprc distances.
func TestCoverAndBracketLegs(t *testing.T) {
	e := quietEnv(t, fake.Config{}, nil)
	bad := []struct {
		name  string
		args  map[string]any
		field string
	}{
		{"cover without stop", order(map[string]any{"product": "COVER"}), "stop_loss"},
		{"cover with target", order(map[string]any{"product": "COVER", "stop_loss": 790, "target": 820}), "target"},
		{"bracket without target", order(map[string]any{"product": "BRACKET", "stop_loss": 790}), "stop_loss"},
		{"buy stop above entry", order(map[string]any{"product": "BRACKET", "stop_loss": 805, "target": 820}), "stop_loss"},
		{"sell target above entry", order(map[string]any{"side": "SELL", "product": "BRACKET", "stop_loss": 810, "target": 820}), "target"},
		{"stop off tick", order(map[string]any{"product": "COVER", "stop_loss": 790.03}), "stop_loss"},
		{"legs on CNC", order(map[string]any{"stop_loss": 790}), "stop_loss"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			body := servetest.ErrorBody(t, e.call("place_order", c.args))
			if body.Code != envelope.InvalidArgument || body.Details["field"] != c.field {
				t.Fatalf("want invalid %s, got %+v", c.field, body)
			}
		})
	}
	if n := len(e.fake.Ledger()); n != 0 {
		t.Fatalf("invalid legs reached the broker: %d", n)
	}
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"product": "BRACKET", "stop_loss": 790, "target": 820.5, "trailing_stop": 1, "idempotency_key": "bo-1"})))
	le := lastLedger(t, e.fake)
	if le.Fields["prd"] != "B" || le.Fields["blprc"] != "10.00" || le.Fields["bpprc"] != "20.50" || le.Fields["trailprc"] != "1.00" {
		t.Fatalf("bracket sent %v", le.Fields)
	}
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"side": "SELL", "product": "COVER", "price": 830, "stop_loss": 840, "idempotency_key": "co-1"})))
	le = lastLedger(t, e.fake)
	if le.Fields["prd"] != "H" || le.Fields["blprc"] != "10.00" || le.Fields["bpprc"] != "" {
		t.Fatalf("cover sent %v", le.Fields)
	}
	// A MARKET bracket goes out as a protective LIMIT; its legs are measured
	// from the last price (the expected fill), not from the protective cap.
	lp, _ := e.fake.LastPrice("NSE", "3045")
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"order_type": "MARKET", "price": nil, "product": "BRACKET",
		"stop_loss": 800, "target": 830, "idempotency_key": "bo-mkt"})))
	le = lastLedger(t, e.fake)
	want := func(v float64) string { return strconv.FormatFloat(math.Round(v/0.05)*0.05, 'f', 2, 64) }
	if le.Fields["prctyp"] != "LMT" || le.Fields["blprc"] != want(lp-800) || le.Fields["bpprc"] != want(830-lp) {
		t.Fatalf("market bracket from %v sent %v", lp, le.Fields)
	}
}

// Item 5: candles under OAuth carry jKey in the body as well as the Bearer
// header (the fake can insist on it), and a symbol with '&' works on the
// search, order and option-chain routes alike.
func TestChartsCarryJKeyAndAmpersandSymbols(t *testing.T) {
	e := quietEnv(t, fake.Config{ChartsRequireJKey: true}, nil)
	last := fake.LastSession(clock.MustFromEnv().Now())
	// Daily bars from two weeks back: the session of the day itself has its
	// daily bar only at some hours, minute bars at all of them.
	from := map[string]string{"5": last.Format("2006-01-02"), "day": last.AddDate(0, 0, -14).Format("2006-01-02")}
	for _, iv := range []string{"5", "day"} {
		out := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2031", "interval": iv, "from": from[iv]}))
		if len(out.Candles) == 0 {
			t.Fatalf("interval %s: no candles", iv)
		}
	}
	s := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NSE", "search_text": "M&M"}))
	if len(s.List()) == 0 || s.List()[0].TradingSymbol != "M&M-EQ" {
		t.Fatalf("search M&M: %+v", s)
	}
	lp, _ := e.fake.LastPrice("NSE", "2031")
	px := math.Floor(lp*0.98/0.05) * 0.05
	out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"trading_symbol": "M&M-EQ", "price": px, "idempotency_key": "mm-1"})))
	if le := lastLedger(t, e.fake); le.Fields["tsym"] != "M%26M-EQ" || out.Outcome != "placed" {
		t.Fatalf("sent %v", le.Fields)
	}
}

// Prices are checked before anything is sent, and formatted with
// the instrument's decimals; a broker that cannot be read after a lost answer
// is reported as "could not be checked".
func TestOrderPricesAreChecked(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	cases := []struct {
		name  string
		args  map[string]any
		field string
		say   string
	}{
		{"subnormal price", order(map[string]any{"price": 5e-324}), "price", "multiple"},
		{"off tick", order(map[string]any{"price": 800.03}), "price", "800.00 or 800.05"},
		{"above circuit", order(map[string]any{"price": 5000}), "price", "circuit"},
		{"trigger off tick", order(map[string]any{"order_type": "SL", "trigger_price": 799.99}), "trigger_price", "multiple"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := servetest.ErrorBody(t, e.call("place_order", c.args))
			if body.Code != envelope.InvalidArgument || body.Details["field"] != c.field || !strings.Contains(body.Message, c.say) {
				t.Fatalf("%+v", body)
			}
		})
	}
	if res := e.call("place_order", order(map[string]any{"price": 1e300})); !res.IsError { // the schema's maximum
		t.Fatal("absurd price accepted")
	}
	if n := len(e.fake.Ledger()); n != 0 {
		t.Fatalf("refused prices reached the broker: %d", n)
	}
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"price": 800.1, "idempotency_key": "fmt-1"})))
	if le := lastLedger(t, e.fake); le.Fields["prc"] != "800.10" {
		t.Fatalf("prc %q", le.Fields["prc"])
	}

	// The answer is lost and the broker then stops answering: the order book
	// cannot be read, and the result must say so.
	e.fake.SetFault("PlaceOrder", fake.Fault{Kind: fake.FaultTimeout})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			if len(e.fake.Ledger()) == 2 {
				e.fake.SetFault("OrderBook", fake.Fault{Kind: fake.FaultStatus, Status: 502})
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	body := servetest.ErrorBody(t, e.callWithin(15*time.Second, "place_order", order(map[string]any{"idempotency_key": "lost-1"})))
	<-done
	e.fake.ClearFaults()
	if body.Code != envelope.OutcomeUnknown || !strings.Contains(body.Message, "could not be checked") || strings.Contains(body.Message, "is in the order book yet") {
		t.Fatalf("%+v", body)
	}
	if e.fake.OrdersWithRemarks("lost-1") != 1 {
		t.Fatal("order not booked once")
	}
	// Once Shoonya answers, the same key finds it and sends nothing.
	out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"idempotency_key": "lost-1"})))
	if out.Outcome != "already_placed" || e.fake.OrdersWithRemarks("lost-1") != 1 {
		t.Fatalf("%+v", out)
	}
}
