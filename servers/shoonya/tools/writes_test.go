package tools_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// routeCalls counts the requests that reached a Noren route of the fake.
func routeCalls(e *env, route string) int {
	n := 0
	for k, v := range e.fake.Drift().Seen() {
		if strings.HasSuffix(k, "/"+route) {
			n += v
		}
	}
	return n
}

// writeCase is one call of a confirmed write tool and what it must answer.
type writeCase struct {
	name  string
	args  func(e *env) map[string]any
	fault *fake.Fault
	code  envelope.Code // "" = success
	field string        // for invalid_argument
	sent  int           // requests the route may see
	check func(t *testing.T, e *env, res string)
}

func runWriteCases(t *testing.T, e *env, tool, route string, cases []writeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args(e)
			before := routeCalls(e, route)
			if c.fault != nil {
				e.fake.SetFault(route, *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.call(tool, args)
			if c.code == "" {
				if res.IsError {
					t.Fatalf("want success, got %s", servetest.ResultJSON(res))
				}
			} else if body := servetest.ErrorBody(t, res); body.Code != c.code || (c.field != "" && body.Details["field"] != c.field) {
				t.Fatalf("want %s (field %q), got %+v", c.code, c.field, body)
			}
			if got := routeCalls(e, route) - before; got != c.sent {
				t.Fatalf("%s saw %d requests, want %d", route, got, c.sent)
			}
			if c.check != nil {
				c.check(t, e, servetest.ResultJSON(res))
			}
		})
	}
}

// coverOrder places an open COVER order below the market and returns its number.
func coverOrder(e *env, key string) string {
	e.t.Helper()
	return servetest.Decode[tools.PlaceOut](e.t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY",
		"quantity": 1, "order_type": "LIMIT", "price": 1400, "product": "COVER", "stop_loss": 1390, "idempotency_key": key})).OrderID
}

// TestExitOrder: exit_order against the fake, confirmation off (its own test below).
func TestExitOrder(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{extra: fastTimeouts, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}}})
	e.connect()
	exited := coverOrder(e, "exit-twice")
	cnc := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY",
		"quantity": 1, "order_type": "LIMIT", "price": 1400, "idempotency_key": "exit-cnc"})).OrderID
	n := 0
	fresh := func(e *env) map[string]any {
		n++
		return map[string]any{"order_id": coverOrder(e, "exit-"+string(rune('a'+n)))}
	}
	runWriteCases(t, e, "exit_order", "ExitSNOOrder", []writeCase{
		{name: "success", args: func(*env) map[string]any { return map[string]any{"order_id": exited} }, sent: 1,
			check: func(t *testing.T, e *env, res string) {
				if !strings.Contains(res, `"outcome":"exit_requested"`) {
					t.Fatalf("%s", res)
				}
				ob := servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil))
				for _, o := range ob.List() {
					if o.OrderID == exited && o.Status != "CANCELED" {
						t.Fatalf("exited order is %s", o.Status)
					}
				}
			}},
		// The broker's refusal of a second exit (its text is in broker_message).
		{name: "exit twice: broker refuses", args: func(*env) map[string]any { return map[string]any{"order_id": exited} }, code: envelope.NotFound, sent: 1,
			check: func(t *testing.T, _ *env, res string) {
				if !strings.Contains(res, fake.EmsgExitNotFound) {
					t.Fatalf("broker text missing: %s", res)
				}
			}},
		{name: "not a cover order", args: func(*env) map[string]any { return map[string]any{"order_id": cnc} }, code: envelope.InvalidArgument, field: "order_id"},
		{name: "wrong product", args: func(e *env) map[string]any { a := fresh(e); a["product"] = "BRACKET"; return a }, code: envelope.InvalidArgument, field: "product"},
		{name: "unknown order", args: func(*env) map[string]any { return map[string]any{"order_id": "999999"} }, code: envelope.NotFound},
		{name: "bad order id", args: func(*env) map[string]any { return map[string]any{"order_id": "no such!"} }, code: envelope.InvalidArgument},
		{name: "bad product", args: func(*env) map[string]any { return map[string]any{"order_id": "1", "product": "CNC"} }, code: envelope.InvalidArgument},
		{name: "429 not retried", args: fresh, fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited, sent: 1},
		{name: "timeout: outcome unknown, not repeated", args: fresh, fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown, sent: 1},
	})
}

// TestConvertPosition: convert_position against the fake.
func TestConvertPosition(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{extra: fastTimeouts, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}, TickInterval: -1}})
	e.connect()
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY",
		"quantity": 20, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "conv-buy"}))
	args := func(over map[string]any) func(*env) map[string]any {
		return func(*env) map[string]any {
			m := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "to_product": "CNC", "quantity": 2}
			for k, v := range over {
				m[k] = v
			}
			return m
		}
	}
	runWriteCases(t, e, "convert_position", "ProductConversion", []writeCase{
		{name: "success", args: args(map[string]any{"quantity": 4}), sent: 1, check: func(t *testing.T, e *env, res string) {
			out := servetest.Decode[tools.ConvertOut](t, e.call("convert_position", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "to_product": "CNC", "quantity": 1}))
			if out.FromProduct != "INTRADAY" || out.ToProduct != "CNC" || out.Quantity != 1 || out.Outcome != "converted" {
				t.Fatalf("%+v", out)
			}
			got := map[string]float64{}
			for _, p := range servetest.Decode[tools.PositionsOut](t, e.call("get_positions", nil)).Positions {
				got[p.Product] = p.NetQuantity
			}
			if got["CNC"] != 5 || got["INTRADAY"] != 15 {
				t.Fatalf("positions after converting 4+1: %v (%s)", got, res)
			}
		}},
		// The README's refusal sample, as the broker answers it.
		{name: "broker's Invalid Position Type", args: args(nil), fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgInvalidPosType}, code: envelope.InvalidArgument, sent: 1,
			check: func(t *testing.T, _ *env, res string) {
				if !strings.Contains(res, "Invalid Position Type") { // the README's text, spaces folded
					t.Fatalf("broker text missing: %s", res)
				}
			}},
		{name: "more than open", args: args(map[string]any{"quantity": 100}), code: envelope.InvalidArgument, field: "quantity"},
		{name: "no position", args: args(map[string]any{"trading_symbol": "TCS-EQ"}), code: envelope.NotFound},
		{name: "wrong from_product", args: args(map[string]any{"from_product": "NORMAL"}), code: envelope.InvalidArgument, field: "from_product"},
		{name: "same product", args: args(map[string]any{"from_product": "INTRADAY", "to_product": "INTRADAY"}), code: envelope.InvalidArgument, field: "to_product"},
		{name: "unknown argument", args: args(map[string]any{"side": "SELL"}), code: envelope.InvalidArgument},
		{name: "bad to_product", args: args(map[string]any{"to_product": "COVER"}), code: envelope.InvalidArgument},
		{name: "429 not retried", args: args(nil), fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited, sent: 1},
		{name: "timeout: outcome unknown, not repeated", args: args(nil), fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown, sent: 1},
	})
}

// TestWritesNeedAPerson: with confirmation required and a client that
// cannot ask, exit_order and convert_position send nothing however often
// they are called; the one-time page shows exactly what goes and sends it once.
func TestWritesNeedAPerson(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{cfg: fake.Config{TickInterval: -1}})
	e.connect()
	co := coverOrder(e, "confirm-co")
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY",
		"quantity": 3, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "confirm-pos"}))
	t.Setenv("SHOONYA_CONFIRM_ORDERS", "require")
	e2 := &env{t: t, fake: e.fake, urls: e.urls, era: e.era, uid: e.uid, conn: servetest.NewWithOptions(t, app(), nil)}
	e2.connect()
	for _, c := range []struct {
		tool, route, shown, done string
		args                     map[string]any
	}{
		{"exit_order", "ExitSNOOrder", "Exit a REAL COVER order on Shoonya: order " + co, "Exit requested", map[string]any{"order_id": co}},
		{"convert_position", "ProductConversion", "Convert a REAL position on Shoonya: 3 SBIN-EQ on NSE (long, DAY position) from INTRADAY to CNC", "Converted 3",
			map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "to_product": "CNC"}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			var url string
			for i := range 3 {
				res := servetest.ResultJSON(e2.call(c.tool, c.args))
				if !strings.Contains(res, `"outcome":"confirmation_required"`) {
					t.Fatalf("try %d: %s", i, res)
				}
				u := strings.Split(strings.Split(res, `"confirm_url":"`)[1], `"`)[0]
				if url != "" && u != url {
					t.Fatalf("a retry got another link")
				}
				url = u
			}
			if n := routeCalls(e2, c.route); n != 0 {
				t.Fatalf("%d requests reached %s without a person's yes", n, c.route)
			}
			page := confirmPage(t, url)
			body := getBody(t, url)
			if !strings.Contains(body, c.shown) {
				t.Fatalf("the page does not show %q: %s", c.shown, body)
			}
			if got := postConfirm(t, url, page, nil); !strings.Contains(got.body, c.done) {
				t.Fatalf("POST: %d %s", got.status, got.body)
			}
			if got := postConfirm(t, url, page, nil); got.status != http.StatusGone {
				t.Fatalf("replay: %d", got.status)
			}
			if n := routeCalls(e2, c.route); n != 1 {
				t.Fatalf("%s saw %d requests after one yes and a replay, want 1", c.route, n)
			}
		})
	}
}

// TestWritesInPaperAndHalted: in paper mode the writes work on the paper
// book and send nothing; when trading is halted a conversion is refused
// and named, an exit (which only closes) still goes.
func TestWritesInPaperAndHalted(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_TRADING": "paper", "SHOONYA_CONFIRM_ORDERS": "require"}})
	e.connect()
	co := coverOrder(e, "paper-co")
	out := servetest.Decode[tools.ExitOut](t, e.call("exit_order", map[string]any{"order_id": co}))
	if out.Mode != "paper" || out.Outcome != "exit_requested" {
		t.Fatalf("paper exit: %+v", out)
	}
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY",
		"quantity": 10, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "paper-pos"}))
	conv := servetest.Decode[tools.ConvertOut](t, e.call("convert_position", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "to_product": "CNC", "quantity": 4}))
	if conv.Mode != "paper" || conv.FromProduct != "INTRADAY" || conv.Quantity != 4 {
		t.Fatalf("paper convert: %+v", conv)
	}
	got := map[string]float64{}
	for _, p := range servetest.Decode[tools.PositionsOut](t, e.call("get_positions", nil)).Positions {
		got[p.Product] = p.NetQuantity
	}
	if got["CNC"] != 4 || got["INTRADAY"] != 6 {
		t.Fatalf("paper positions: %v", got)
	}
	for _, r := range []string{"ExitSNOOrder", "ProductConversion", "PlaceOrder", "CancelOrder"} {
		if n := routeCalls(e, r); n != 0 {
			t.Errorf("%d requests reached %s in paper mode", n, r)
		}
	}

	h := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_TRADING": "halted"}})
	h.connect()
	body := servetest.ErrorBody(t, h.call("convert_position", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "to_product": "CNC"}))
	if body.Code != envelope.PermissionDenied || !strings.Contains(body.Message, "halt") {
		t.Fatalf("halted convert: %+v", body)
	}
	// An exit is not refused by the halt: it reaches the order lookup.
	if body := servetest.ErrorBody(t, h.call("exit_order", map[string]any{"order_id": "424242"})); body.Code != envelope.NotFound {
		t.Fatalf("halted exit: %+v", body)
	}
	if n := routeCalls(h, "ProductConversion"); n != 0 {
		t.Fatalf("a halted conversion was sent")
	}
}

func getBody(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
}

// askAll accepts (or declines) every question and keeps what was asked.
type askAll struct {
	accept bool
	asked  *[]string
}

func (h askAll) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	*h.asked = append(*h.asked, req.Params.Message)
	if !h.accept {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// TestWritesElicitBothEras: the new writes ask through elicitation in
// both protocol eras (2026-07-28: input_required with a ticket bound to the
// tool and its fields), showing what will be sent; a decline sends nothing,
// a yes sends once.
func TestWritesElicitBothEras(t *testing.T) {
	low, high, _ := niftyOptions(t)
	for _, v := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.ProtocolVersion20251125} {
		for _, accept := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/accept=%t", v, accept), func(t *testing.T) {
				e := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}, cfg: fake.Config{TickInterval: -1}})
				e.connect()
				var asked []string
				c, err := client.NewInProcessClientWithOptions(e.conn.Built.Server, client.WithElicitationHandler(askAll{accept, &asked}), client.WithProtocolVersion(v))
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				if err := c.Start(ctx); err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				var init mcp.InitializeRequest
				init.Params.ProtocolVersion = v
				init.Params.ClientInfo = mcp.Implementation{Name: "writes-test", Version: "1"}
				init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
				if _, err := c.Initialize(ctx, init); err != nil {
					t.Fatal(err)
				}
				var req mcp.CallToolRequest
				req.Params.Name = "place_basket"
				req.Params.Arguments = map[string]any{"legs": []any{leg(high, "SELL"), leg(low, "BUY")}, "idempotency_key": fmt.Sprintf("el-%t", accept)}
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatalf("protocol error: %v", err)
				}
				if len(asked) != 1 || !strings.Contains(asked[0], "1) BUY") || !strings.Contains(asked[0], "2) SELL") {
					t.Fatalf("the question does not list the legs buy first: %q", asked)
				}
				want := 0
				if accept {
					want = 2
					if out := servetest.Decode[tools.BasketOut](t, res); out.Outcome != "placed" {
						t.Fatalf("%+v", out)
					}
				} else if body := servetest.ErrorBody(t, res); body.Code != envelope.PermissionDenied {
					t.Fatalf("declined: %+v", body)
				}
				if n := len(e.fake.Ledger()); n != want {
					t.Fatalf("ledger %d, want %d", n, want)
				}
			})
		}
	}
}
