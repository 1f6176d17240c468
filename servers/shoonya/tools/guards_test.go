package tools_test

import (
	"fmt"
	"html"
	"net/http"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// limitBuy is a place_order call; SBIN trades near 812 in the fake, so a BUY
// limit at 700 rests open.
func limitBuy(sym string, qty int, price float64, key string) map[string]any {
	return map[string]any{"exchange": "NSE", "trading_symbol": sym, "side": "BUY", "quantity": qty,
		"order_type": "LIMIT", "price": price, "product": "CNC", "idempotency_key": key}
}

// refusedBy checks that res is the named guard's refusal: permission_denied,
// not retryable, naming its setting and how a person lifts it.
func refusedBy(t *testing.T, res *mcp.CallToolResult, guardName, setting string) envelope.Body {
	t.Helper()
	body := servetest.ErrorBody(t, res)
	if body.Code != envelope.PermissionDenied || body.Details["guard"] != guardName || body.Details["setting"] != setting ||
		body.Details["lift"] == nil || !strings.Contains(body.Message, setting) || !strings.Contains(body.Message, "nothing was sent") || body.Retryable {
		t.Fatalf("want the %s guard (%s), got %+v", guardName, setting, body)
	}
	return body
}

// TestGuardsThroughTools: each account guard refuses through place_order
// and modify_order before anything reaches the broker, in both eras.
func TestGuardsThroughTools(t *testing.T) {
	cases := []struct {
		name  string
		env   map[string]string
		run   func(t *testing.T, e *env, p *countingProxy)
		place int // PlaceOrder requests at the end
		mod   int // ModifyOrder requests at the end
	}{
		{"max orders per day", map[string]string{"SHOONYA_MAX_ORDERS_PER_DAY": "2"}, func(t *testing.T, e *env, _ *countingProxy) {
			servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "day-1")))
			servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("TCS-EQ", 1, 3000, "day-2")))
			b := refusedBy(t, e.call("place_order", limitBuy("RELIANCE-EQ", 1, 1300, "day-3")), "max_orders_per_day", "SHOONYA_MAX_ORDERS_PER_DAY")
			if !strings.Contains(b.Message, "2 orders were already sent today") {
				t.Errorf("message: %s", b.Message)
			}
		}, 2, 0},
		{"max day value", map[string]string{"SHOONYA_MAX_DAY_VALUE": "10000"}, func(t *testing.T, e *env, _ *countingProxy) {
			servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 10, 700, "val-1"))) // ₹7,000
			b := refusedBy(t, e.call("place_order", limitBuy("SBIN-EQ", 5, 700, "val-2")), "max_day_value", "SHOONYA_MAX_DAY_VALUE")
			if !strings.Contains(b.Message, "₹3000.00 left") {
				t.Errorf("message does not say what is left: %s", b.Message)
			}
			servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 4, 700, "val-3"))) // ₹2,800 fits
		}, 2, 0},
		{"max day value through modify", map[string]string{"SHOONYA_MAX_DAY_VALUE": "10000"}, func(t *testing.T, e *env, _ *countingProxy) {
			out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "mval-1")))
			refusedBy(t, e.call("modify_order", map[string]any{"order_id": out.OrderID, "quantity": 100}), "max_day_value", "SHOONYA_MAX_DAY_VALUE")
			// A change that fits spends the difference: 10 @ 700 = 7,000 (6,300 more).
			servetest.Decode[tools.ModifyAck](t, e.call("modify_order", map[string]any{"order_id": out.OrderID, "quantity": 10}))
			refusedBy(t, e.call("place_order", limitBuy("SBIN-EQ", 5, 700, "mval-2")), "max_day_value", "SHOONYA_MAX_DAY_VALUE")
		}, 1, 1},
		{"duplicate window", map[string]string{"SHOONYA_DUPLICATE_WINDOW": "60s"}, func(t *testing.T, e *env, _ *countingProxy) {
			first := servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 3, 700, "dup-a")))
			// The same symbol, side and quantity under a fresh key (at another
			// price too) is held: nothing sent, the earlier order named, and
			// only a person's yes on the page makes it a second order.
			var page string
			for _, k := range []string{"dup-b", "dup-c"} {
				if u := duplicateHeld(t, e.call("place_order", limitBuy("SBIN-EQ", 3, 699, k)), "dup-a", first.OrderID); page == "" {
					page = u
				}
			}
			// The same key is a retry: already_placed, nothing sent.
			if again := servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 3, 700, "dup-a"))); again.Outcome != "already_placed" || again.OrderID != first.OrderID {
				t.Fatalf("same key: %+v", again)
			}
			// Another quantity is another order.
			servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 4, 700, "dup-d")))
			if got := postConfirm(t, page, confirmPage(t, page), nil); !strings.Contains(got.body, "Placed: order") {
				t.Fatalf("the person's yes to a second order: %d %s", got.status, got.body)
			}
		}, 3, 0},
		{"max rejections freezes", map[string]string{"SHOONYA_MAX_REJECTIONS": "3"}, func(t *testing.T, e *env, p *countingProxy) {
			open := servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "rej-open")))
			e.fake.SetFault("PlaceOrder", fake.Fault{Kind: fake.FaultRefuse, Body: "Insufficient Balance"})
			for i := range 3 {
				if body := servetest.ErrorBody(t, e.call("place_order", limitBuy("SBIN-EQ", 1+i, 700, fmt.Sprintf("rej-%d", i)))); body.Details["broker_message"] == nil {
					t.Fatalf("rejection %d: %+v", i, body)
				}
			}
			e.fake.ClearFaults()
			b := refusedBy(t, e.call("place_order", limitBuy("TCS-EQ", 1, 3000, "rej-after")), "auto_freeze", "SHOONYA_MAX_REJECTIONS")
			if !strings.Contains(b.Message, "Insufficient Balance") || !strings.Contains(fmt.Sprint(b.Details["lift"]), "shoonya trading resume") {
				t.Errorf("freeze message: %+v", b)
			}
			refusedBy(t, e.call("modify_order", map[string]any{"order_id": open.OrderID, "price": 701}), "auto_freeze", "SHOONYA_MAX_REJECTIONS")
			// Cancels still go: a frozen account can still get out.
			servetest.Decode[tools.OrderAck](t, e.call("cancel_order", map[string]any{"order_id": open.OrderID}))
		}, 4, 0},
		{"halted by configuration", map[string]string{"SHOONYA_TRADING": "halted"}, func(t *testing.T, e *env, _ *countingProxy) {
			refusedBy(t, e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "halt-1")), "kill_switch", "SHOONYA_TRADING")
			refusedBy(t, e.call("modify_order", map[string]any{"order_id": "24120700000001", "price": 701}), "kill_switch", "SHOONYA_TRADING")
		}, 0, 0},
	}
	for _, era := range eras {
		for _, tc := range cases {
			t.Run(string(era)+"/"+tc.name, func(t *testing.T) {
				rep, proxy := newReplicas(t, era, 1, "", tc.env)
				tc.run(t, rep[0], proxy)
				if n := proxy.count("PlaceOrder"); n != tc.place {
					t.Errorf("PlaceOrder requests %d, want %d", n, tc.place)
				}
				if n := proxy.count("ModifyOrder"); n != tc.mod {
					t.Errorf("ModifyOrder requests %d, want %d", n, tc.mod)
				}
			})
		}
	}
}

// TestHaltFromConfirmationPage: a person's halt on the page refuses every
// order and modification that follows (the page's own pending order too).
func TestHaltFromConfirmationPage(t *testing.T) {
	ce := newConfirmEnv(t, noren.Legacy, "stdio", nil)
	out := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", limitBuy("SBIN-EQ", 1, 700, "halt-page")))
	page := confirmPage(t, out.ConfirmURL)
	if got := postAction(t, out.ConfirmURL, "halt", page); got.status != 200 || !strings.Contains(got.body, "Trading is halted") {
		t.Fatalf("halt: %d %s", got.status, got.body)
	}
	refusedBy(t, ce.call("place_order", limitBuy("TCS-EQ", 1, 3000, "halt-page-2")), "kill_switch", "SHOONYA_TRADING")
	refusedBy(t, ce.call("modify_order", map[string]any{"order_id": "24120700000001", "price": 701}), "kill_switch", "SHOONYA_TRADING")
	if got := postConfirm(t, out.ConfirmURL, page, nil); strings.Contains(got.body, "Placed: order") {
		t.Fatalf("the page placed an order while halted: %s", got.body)
	}
	if n := ce.proxy.count("PlaceOrder") + ce.proxy.count("ModifyOrder"); n != 0 {
		t.Fatalf("%d order requests reached the broker while halted", n)
	}
}

// TestGuardCountersSharedByReplicas: two server instances on one state file
// (MCPFLEET_STATE=file) or one Redis count one day: the cap admits two orders
// across both, and the duplicate window sees the other replica's order.
func TestGuardCountersSharedByReplicas(t *testing.T) {
	rs := redistest.StartServer(t)
	for _, backend := range []string{"state file", "redis"} {
		for _, era := range eras {
			t.Run(backend+"/"+string(era), func(t *testing.T) {
				vars := map[string]string{"SHOONYA_MAX_ORDERS_PER_DAY": "2", "SHOONYA_DUPLICATE_WINDOW": "60s"}
				url := ""
				if backend == "redis" {
					url = redisURLOf(rs)
					if err := rs.NewClient(t).FlushAll(t.Context()).Err(); err != nil {
						t.Fatal(err)
					}
				} else {
					vars["MCPFLEET_STATE"], vars["MCPFLEET_STATE_DIR"] = "file", t.TempDir()
				}
				rep, proxy := newReplicas(t, era, 2, url, vars)
				a, b := rep[0], rep[1]
				servetest.Decode[tools.PlaceOut](t, a.call("place_order", limitBuy("SBIN-EQ", 1, 700, "rep-1")))
				duplicateHeld(t, b.call("place_order", limitBuy("SBIN-EQ", 1, 700, "rep-2")), "rep-1", "")
				servetest.Decode[tools.PlaceOut](t, b.call("place_order", limitBuy("TCS-EQ", 1, 3000, "rep-3")))
				refusedBy(t, a.call("place_order", limitBuy("RELIANCE-EQ", 1, 1300, "rep-4")), "max_orders_per_day", "SHOONYA_MAX_ORDERS_PER_DAY")
				refusedBy(t, b.call("place_order", limitBuy("RELIANCE-EQ", 1, 1300, "rep-5")), "max_orders_per_day", "SHOONYA_MAX_ORDERS_PER_DAY")
				if n := proxy.count("PlaceOrder"); n != 2 {
					t.Fatalf("PlaceOrder requests %d across replicas, want 2", n)
				}
			})
		}
	}
}

// postAction presses a button of the confirmation page ("halt", "place").
func postAction(t *testing.T, url, action, escapedOrder string) posted {
	t.Helper()
	form := neturl.Values{"action": {action}, "order": {html.UnescapeString(escapedOrder)}}
	res, err := http.Post(url, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	return posted{res.StatusCode, bodyOf(t, res)}
}

// duplicateHeld checks that res holds a repeat of the order with earlierKey
// (earlierID when set) inside SHOONYA_DUPLICATE_WINDOW: nothing sent, the
// earlier order named, a confirmation page offered; it returns the page.
func duplicateHeld(t *testing.T, res *mcp.CallToolResult, earlierKey, earlierID string) string {
	t.Helper()
	out := servetest.Decode[tools.PlaceOut](t, res)
	if out.Outcome != "confirmation_required" || out.OrderID != "" || out.ConfirmURL == "" || !strings.Contains(out.Next, "SHOONYA_DUPLICATE_WINDOW") ||
		!strings.Contains(out.Next, "idempotency key "+earlierKey) || !strings.Contains(out.Next, earlierID) || !strings.Contains(out.Next, "SECOND order") {
		t.Fatalf("want the repeat of %s held, got %+v", earlierKey, out)
	}
	return out.ConfirmURL
}

// TestConfirmPageRechecksGuards: a person's yes on the page goes through
// the guards again at that moment: two pages offered while one order is
// left today place one order; the second page says why nothing was sent.
func TestConfirmPageRechecksGuards(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ce := newConfirmEnv(t, noren.OAuth, tr, map[string]string{"SHOONYA_MAX_ORDERS_PER_DAY": "1"})
			a := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", limitBuy("SBIN-EQ", 1, 700, "recheck-a")))
			b := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", limitBuy("TCS-EQ", 1, 3000, "recheck-b")))
			if a.ConfirmURL == "" || b.ConfirmURL == "" || a.ConfirmURL == b.ConfirmURL {
				t.Fatalf("two pages: %+v %+v", a, b)
			}
			if got := postConfirm(t, a.ConfirmURL, confirmPage(t, a.ConfirmURL), nil); !strings.Contains(got.body, "Placed: order") {
				t.Fatalf("first page: %d %s", got.status, got.body)
			}
			got := postConfirm(t, b.ConfirmURL, confirmPage(t, b.ConfirmURL), nil)
			if strings.Contains(got.body, "Placed: order") || !strings.Contains(got.body, "Not placed") || !strings.Contains(got.body, "max_orders_per_day") {
				t.Fatalf("second page over the cap: %d %s", got.status, got.body)
			}
			if n := ce.proxy.count("PlaceOrder"); n != 1 {
				t.Fatalf("PlaceOrder requests %d, want 1", n)
			}
		})
	}
}
