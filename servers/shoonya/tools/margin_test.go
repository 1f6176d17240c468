package tools_test

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// marginArgs and basketArgs are valid calls (the fault and refusal matrices use them).
var (
	marginArgs = map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 800}
	basketArgs = map[string]any{"legs": []any{
		map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "price": 800, "product": "MIS"},
		map[string]any{"exchange": "NSE", "trading_symbol": "TCS-EQ", "side": "SELL", "quantity": 1, "price": 3100, "product": "MIS"},
	}}
)

func near(a, b float64) bool { return math.Abs(a-b) < 0.011 }

// TestOrderMargin: get_order_margin against the fake, table-driven: what an
// order blocks, the shortfall in rupees, each documented failure, bad
// arguments, a 429 and a timeout.
func TestOrderMargin(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	buy := func(over map[string]any) map[string]any {
		m := map[string]any{"exchange": "NSE", "trading_symbol": "TCS-EQ", "side": "BUY", "quantity": 10, "order_type": "LIMIT", "price": 3100}
		for k, v := range over {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	cases := []struct {
		name      string
		args      map[string]any
		fault     *fake.Fault
		required  float64
		shortfall float64
		code      envelope.Code
		text      string
	}{
		{name: "delivery buy", args: buy(nil), required: 31000},
		{name: "intraday is a fifth", args: buy(map[string]any{"product": "MIS"}), required: 6200},
		{name: "short of cash", args: buy(map[string]any{"quantity": 1000}), required: 3_100_000, shortfall: 2_100_000},
		{name: "equity sell blocks nothing", args: buy(map[string]any{"side": "SELL"}), required: 0},
		{name: "market order", args: buy(map[string]any{"order_type": "MARKET", "price": nil}), required: 31042},
		{name: "limit without price", args: buy(map[string]any{"price": nil}), code: envelope.InvalidArgument, text: "price"},
		{name: "trigger on a limit", args: buy(map[string]any{"trigger_price": 3000}), code: envelope.InvalidArgument, text: "trigger_price"},
		{name: "quantity 0", args: buy(map[string]any{"quantity": 0}), code: envelope.InvalidArgument, text: "quantity"},
		{name: "unknown product", args: buy(map[string]any{"product": "BRACKET"}), code: envelope.InvalidArgument, text: "product"},
		// ShoonyaApi-py README PlaceOrder failure sample; the README's GetOptionGreek one.
		{name: "invalid input", args: buy(nil), fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgInvalidInput}, code: envelope.InvalidArgument, text: "invalid input"},
		{name: "jData missing", args: buy(nil), fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgJDataMissing}, code: envelope.InvalidArgument},
		{name: "server timeout", args: buy(nil), fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgServerTimeout}, code: envelope.UpstreamUnavailable},
		{name: "429", args: buy(nil), fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited},
		{name: "timeout", args: buy(nil), fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != nil {
				e.fake.SetFault("GetOrderMargin", *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, "get_order_margin", c.args)
			if c.code != "" {
				body := servetest.ErrorBody(t, res)
				if body.Code != c.code && !(c.code == envelope.RateLimited && body.Code == envelope.Timeout) {
					t.Fatalf("want %s, got %+v", c.code, body)
				}
				if !strings.Contains(strings.ToLower(body.Message+" "+anyText(body.Details["field"])+" "+anyText(body.Details["broker_message"])), c.text) {
					t.Fatalf("want %q named: %+v", c.text, body)
				}
				return
			}
			out := servetest.Decode[tools.MarginOut](t, res)
			want := c.required
			if c.name == "market order" { // the last price, whatever it is
				lp, _ := e.fake.LastPrice("NSE", "11536")
				want = lp * 10
			}
			if !near(out.Required, want) || !near(out.Shortfall, c.shortfall) || !near(out.Available, 1_000_000) {
				t.Fatalf("want required %v shortfall %v: %+v", want, c.shortfall, out)
			}
			if c.shortfall > 0 && out.Remarks != fake.RemarksInsufficient {
				t.Fatalf("broker remarks: %+v", out)
			}
		})
	}
}

func anyText(v any) string {
	s, _ := v.(string)
	return strings.ToLower(s)
}

// TestBasketMargin: legs priced together against each alone; the hedge's
// benefit is sum_of_legs - basket_margin, in rupees and percent.
func TestBasketMargin(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	chain := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 2}))
	if len(chain.Rows) < 3 {
		t.Fatalf("chain: %+v", chain)
	}
	syms := chainSymbols(t, chain)
	leg := func(sym, side string, px float64) map[string]any {
		return map[string]any{"exchange": "NFO", "trading_symbol": sym, "side": side, "quantity": 65, "price": px}
	}
	spread := []any{leg(syms[0], "SELL", 100), leg(syms[1], "BUY", 60)}
	cases := []struct {
		name    string
		legs    []any
		fault   string // route given a 429
		code    envelope.Code
		text    string
		hedged  bool
		partial bool
	}{
		{name: "spread is hedged", legs: spread, hedged: true},
		{name: "two buys are not", legs: []any{leg(syms[0], "BUY", 100), leg(syms[1], "BUY", 60)}},
		{name: "one leg", legs: spread[:1], code: envelope.InvalidArgument, text: "legs"},
		{name: "market leg", legs: []any{leg(syms[0], "SELL", 0), spread[1]}, code: envelope.InvalidArgument, text: "market"},
		{name: "bad exchange", legs: []any{map[string]any{"exchange": "XXX", "trading_symbol": syms[0], "side": "BUY", "quantity": 65, "price": 5}, spread[1]}, code: envelope.InvalidArgument, text: "exchange"},
		{name: "bad side", legs: []any{map[string]any{"exchange": "NFO", "trading_symbol": syms[0], "side": "HOLD", "quantity": 65, "price": 5}, spread[1]}, code: envelope.InvalidArgument, text: "side"},
		{name: "basket 429", legs: spread, fault: "GetBasketMargin", code: envelope.RateLimited},
		{name: "single leg 429 is partial", legs: spread, fault: "GetOrderMargin", partial: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != "" {
				e.fake.SetFault(c.fault, fake.Fault{Kind: fake.FaultRateLimit})
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, "get_basket_margin", map[string]any{"legs": c.legs})
			if c.code != "" {
				body := servetest.ErrorBody(t, res)
				if body.Code != c.code && !(c.code == envelope.RateLimited && body.Code == envelope.Timeout) {
					t.Fatalf("want %s, got %+v", c.code, body)
				}
				if !strings.Contains(strings.ToLower(body.Message+" "+anyText(body.Details["field"])), c.text) {
					t.Fatalf("want %q named: %+v", c.text, body)
				}
				return
			}
			out := servetest.Decode[tools.BasketMarginOut](t, res)
			if c.partial {
				if out.Complete || out.Incomplete == nil || out.HedgeBenefit != 0 || out.Basket <= 0 {
					t.Fatalf("a failed leg must make it partial: %+v", out)
				}
				return
			}
			var sum float64
			for _, l := range out.Legs {
				sum += l.Margin
			}
			if !out.Complete || len(out.Legs) != len(c.legs) || !near(sum, out.SumOfLegs) || !near(out.HedgeBenefit, out.SumOfLegs-out.Basket) {
				t.Fatalf("figures do not add up: %+v", out)
			}
			if c.hedged != (out.HedgeBenefit > 0) || c.hedged && !near(out.BenefitPct, math.Round(out.HedgeBenefit/out.SumOfLegs*10000)/100) {
				t.Fatalf("hedged %v: %+v", c.hedged, out)
			}
		})
	}
}

// chainSymbols are the chain's call symbols, strike order.
func chainSymbols(t *testing.T, c tools.ChainOut) []string {
	t.Helper()
	var out []string
	for _, r := range c.Rows {
		if r.Call != nil {
			out = append(out, r.Call.TradingSymbol)
		}
	}
	if len(out) < 2 {
		t.Fatalf("no calls in %+v", c)
	}
	return out
}

// TestPlaceOrderChecksMarginFirst: an order the broker says there is no
// margin for is refused before it is sent (or a person asked), with the
// rupees short; a margin route that fails never passes as enough.
func TestPlaceOrderChecksMarginFirst(t *testing.T) {
	env := map[string]string{"SHOONYA_MAX_ORDER_VALUE": "0", "SHOONYA_MAX_ORDER_QTY": "0"}
	for k, v := range fastTimeouts {
		env[k] = v
	}
	e := quietEnv(t, fake.Config{}, env)
	big := order(map[string]any{"trading_symbol": "TCS-EQ", "quantity": 1000, "price": 3100, "idempotency_key": "margin-big"})
	sent := len(e.fake.Ledger())
	body := servetest.ErrorBody(t, e.call("place_order", big))
	if body.Code != envelope.PermissionDenied || body.Details["limit"] != "margin" || !near(body.Details["shortfall"].(float64), 2_100_000) ||
		!strings.Contains(body.Message, "add funds or reduce quantity") || !strings.Contains(body.Message, "get_order_margin") {
		t.Fatalf("shortfall refusal: %+v", body)
	}
	if len(e.fake.Ledger()) != sent {
		t.Fatal("an order without margin reached the broker")
	}
	ok := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"quantity": 2, "idempotency_key": "margin-ok"})))
	if ok.Margin == nil || !ok.Margin.Checked || !near(ok.Margin.Required, 1600) {
		t.Fatalf("checked margin: %+v", ok.Margin)
	}
	for _, f := range []fake.Fault{{Kind: fake.FaultStatus, Status: 404}, {Kind: fake.FaultTimeout}} {
		e.fake.SetFault("GetOrderMargin", f)
		out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(map[string]any{"quantity": 3, "idempotency_key": "margin-down-" + string(f.Kind)})))
		e.fake.ClearFaults()
		if out.OrderID == "" || out.Margin == nil || out.Margin.Checked || !strings.Contains(out.Margin.Note, "margin not checked") {
			t.Fatalf("%s: a failed margin route must say so: %+v", f.Kind, out.Margin)
		}
	}
}

// countingYes accepts every question and counts them.
type countingYes struct{ n *atomic.Int32 }

func (c countingYes) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	c.n.Add(1)
	return answer("accept").Elicit(ctx, req)
}

// TestMarginRefusedBeforeAsking: a person is never asked to confirm an
// order the broker says there is no margin for, in either protocol era.
func TestMarginRefusedBeforeAsking(t *testing.T) {
	for _, v := range []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(v, func(t *testing.T) {
			e := newConfirmEnv(t, noren.OAuth, "stdio", map[string]string{"SHOONYA_MAX_ORDER_VALUE": "0", "SHOONYA_MAX_ORDER_QTY": "0"})
			var asked atomic.Int32
			c := e.client(t, v, countingYes{&asked}, nil)
			args := sbinLimit("margin-ask")
			args["trading_symbol"], args["quantity"], args["price"] = "TCS-EQ", 1000, 3100
			res, err := placeCall(c, args)
			if err != nil {
				t.Fatal(err)
			}
			if body := servetest.ErrorBody(t, res); body.Details["limit"] != "margin" || asked.Load() != 0 || e.proxy.count("PlaceOrder") != 0 {
				t.Fatalf("asked %d, sent %d: %+v", asked.Load(), e.proxy.count("PlaceOrder"), body)
			}
		})
	}
}
