package tools_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

var alertSeq int

// setAlert sets an LTP_ABOVE alert on RELIANCE-EQ (last price about 1402) far above the market.
func setAlert(t *testing.T, e *env, value float64) tools.AlertOut {
	t.Helper()
	alertSeq++
	return servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", map[string]any{
		"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_ABOVE", "value": value,
		"idempotency_key": fmt.Sprintf("al-test-%d", alertSeq)}))
}

type alertCase struct {
	name  string
	tool  string
	args  func(e *env) map[string]any
	route string     // fault on this route
	fault fake.Fault // zero: none
	code  envelope.Code
	codes []envelope.Code // any of (429: rate_limited or timeout)
	check func(t *testing.T, e *env, res *mcp.CallToolResult)
}

func fixed(m map[string]any) func(*env) map[string]any { return func(*env) map[string]any { return m } }

func alertCases() []alertCase {
	set := func(v float64) func(*env) map[string]any {
		return func(*env) map[string]any {
			alertSeq++
			return map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_ABOVE", "value": v,
				"idempotency_key": fmt.Sprintf("case-%d", alertSeq)}
		}
	}
	pending := func(e *env) map[string]any {
		return map[string]any{"alert_id": setAlert(e.t.(*testing.T), e, 5000).AlertID}
	}
	return []alertCase{
		// set_price_alert
		{name: "set/success", tool: "set_price_alert", args: set(1500), check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
			out := servetest.Decode[tools.AlertOut](t, res)
			if out.AlertID == "" || out.Status != "set" || out.Condition != "LTP_ABOVE" || out.LastPrice == nil || out.Distance == nil ||
				*out.Distance <= 0 || out.AlreadyMet || out.FiresOn != feed.OrdersURI {
				t.Fatalf("%+v", out)
			}
		}},
		{name: "set/already met is said", tool: "set_price_alert", args: func(*env) map[string]any {
			return map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_BELOW", "value": 5000, "idempotency_key": "met-1"}
		}, check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
			if out := servetest.Decode[tools.AlertOut](t, res); !out.AlreadyMet || *out.Distance <= 0 {
				t.Fatalf("%+v", out)
			}
		}},
		{name: "set/unknown symbol", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "NOSUCH-EQ", "condition": "LTP_ABOVE", "value": 10}), code: envelope.InvalidArgument},
		{name: "set/price not positive", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_BELOW", "value": 0}), code: envelope.InvalidArgument},
		{name: "set/percent out of range", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "CHANGE_PERCENT_ABOVE", "value": 150}), code: envelope.InvalidArgument},
		{name: "set/bad condition", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "VOLUME_ABOVE", "value": 10}), code: envelope.InvalidArgument},
		{name: "set/missing value", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_ABOVE"}), code: envelope.InvalidArgument},
		{name: "set/bad key", tool: "set_price_alert", args: fixed(map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_ABOVE", "value": 10, "idempotency_key": "a b"}), code: envelope.InvalidArgument},
		{name: "set/broker refuses ai_t", tool: "set_price_alert", args: set(1501), route: "SetAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgAlertType}, code: envelope.InvalidArgument,
			check: brokerSaid(fake.EmsgAlertType)},
		{name: "set/broker refuses d", tool: "set_price_alert", args: set(1502), route: "SetAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgAlertValue}, code: envelope.InvalidArgument,
			check: brokerSaid(fake.EmsgAlertValue)},
		{name: "set/broker refuses symbol", tool: "set_price_alert", args: set(1503), route: "SetAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgAlertSymbol}, code: envelope.InvalidArgument,
			check: brokerSaid(fake.EmsgAlertSymbol)},
		{name: "set/429", tool: "set_price_alert", args: set(1504), route: "SetAlert", fault: fake.Fault{Kind: fake.FaultRateLimit}, codes: []envelope.Code{envelope.RateLimited, envelope.Timeout}},
		// A lost answer: the alert was made; the pending list (remarks = key) finds it.
		{name: "set/timeout recovered", tool: "set_price_alert", args: set(1505), route: "SetAlert", fault: fake.Fault{Kind: fake.FaultTimeout}, check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
			if out := servetest.Decode[tools.AlertOut](t, res); out.AlertID == "" {
				t.Fatalf("%+v", out)
			}
		}},
		// modify_price_alert
		{name: "modify/success", tool: "modify_price_alert", args: func(e *env) map[string]any {
			m := pending(e)
			m["value"] = 4000
			return m
		}, check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
			if out := servetest.Decode[tools.AlertOut](t, res); out.Status != "modified" || out.Value != 4000 || out.Condition != "LTP_ABOVE" {
				t.Fatalf("%+v", out)
			}
		}},
		{name: "modify/nothing to change", tool: "modify_price_alert", args: pending, code: envelope.InvalidArgument},
		{name: "modify/unknown id", tool: "modify_price_alert", args: fixed(map[string]any{"alert_id": "999", "value": 10}), code: envelope.NotFound},
		{name: "modify/broker: alert not found", tool: "modify_price_alert", args: func(e *env) map[string]any {
			m := pending(e)
			m["value"] = 4100
			return m
		}, route: "ModifyAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgAlertNotFound}, code: envelope.NotFound, check: brokerSaid(fake.EmsgAlertNotFound)},
		{name: "modify/429", tool: "modify_price_alert", args: func(e *env) map[string]any {
			m := pending(e)
			m["value"] = 4200
			return m
		}, route: "ModifyAlert", fault: fake.Fault{Kind: fake.FaultRateLimit}, codes: []envelope.Code{envelope.RateLimited, envelope.Timeout}},
		{name: "modify/timeout", tool: "modify_price_alert", args: func(e *env) map[string]any {
			m := pending(e)
			m["value"] = 4300
			return m
		}, route: "ModifyAlert", fault: fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown},
		// cancel_price_alert
		{name: "cancel/success", tool: "cancel_price_alert", args: pending, check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
			if out := servetest.Decode[tools.CancelAlertOut](t, res); out.Status != "cancelled" || out.AlertID == "" {
				t.Fatalf("%+v", out)
			}
		}},
		{name: "cancel/unknown id", tool: "cancel_price_alert", args: fixed(map[string]any{"alert_id": "999"}), code: envelope.NotFound, check: brokerSaid(fake.EmsgAlertNotFound)},
		{name: "cancel/bad id", tool: "cancel_price_alert", args: fixed(map[string]any{"alert_id": "a/b"}), code: envelope.InvalidArgument},
		{name: "cancel/429", tool: "cancel_price_alert", args: pending, route: "CancelAlert", fault: fake.Fault{Kind: fake.FaultRateLimit}, codes: []envelope.Code{envelope.RateLimited, envelope.Timeout}},
		{name: "cancel/timeout", tool: "cancel_price_alert", args: pending, route: "CancelAlert", fault: fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown},
		// list_price_alerts
		{name: "list/success", tool: "list_price_alerts", args: func(e *env) map[string]any { setAlert(e.t.(*testing.T), e, 6000); return nil },
			check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
				out := servetest.Decode[tools.AlertsOut](t, res)
				if !out.Complete || len(out.Alerts) == 0 || out.Alerts[0].Value != 6000 || out.Alerts[0].Condition != "LTP_ABOVE" ||
					!strings.HasSuffix(out.Alerts[0].SetAt, "+05:30") || len(out.ThirdParty) != 1 {
					t.Fatalf("%+v", out)
				}
			}},
		{name: "list/no data is an honest empty list", tool: "list_price_alerts", args: fixed(nil), route: "GetPendingAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgNoData},
			check: func(t *testing.T, e *env, res *mcp.CallToolResult) {
				if out := servetest.Decode[tools.AlertsOut](t, res); len(out.Alerts) != 0 || !out.Complete || out.Empty == "" {
					t.Fatalf("%+v", out)
				}
			}},
		{name: "list/refusal is an error", tool: "list_price_alerts", args: fixed(nil), route: "GetPendingAlert", fault: fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgInvalidInput}, code: envelope.InvalidArgument},
		{name: "list/429", tool: "list_price_alerts", args: fixed(nil), route: "GetPendingAlert", fault: fake.Fault{Kind: fake.FaultRateLimit}, codes: []envelope.Code{envelope.RateLimited, envelope.Timeout}},
		{name: "list/timeout", tool: "list_price_alerts", args: fixed(nil), route: "GetPendingAlert", fault: fake.Fault{Kind: fake.FaultTimeout}, code: envelope.Timeout},
	}
}

func brokerSaid(text string) func(t *testing.T, e *env, res *mcp.CallToolResult) {
	return func(t *testing.T, e *env, res *mcp.CallToolResult) {
		if b := servetest.ErrorBody(t, res); b.Details["broker_message"] != text {
			t.Fatalf("broker_message %v, want %q", b.Details["broker_message"], text)
		}
	}
}

// TestAlertTools: every alert tool against the fake, in both login
// generations: success, each failure text the fake documents, bad
// arguments, a 429 and a timeout.
func TestAlertTools(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{extra: fastTimeouts, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}}})
			e.connect()
			for _, tc := range alertCases() {
				t.Run(tc.name, func(t *testing.T) {
					e.t = t
					args := tc.args(e)
					if tc.route != "" {
						e.fake.SetFault(tc.route, tc.fault)
						defer e.fake.ClearFaults()
					}
					res := e.callWithin(5*time.Second, tc.tool, args)
					switch {
					case tc.code == "" && tc.codes == nil:
						if res.IsError {
							t.Fatalf("want success: %s", servetest.Text(res))
						}
					default:
						b := servetest.ErrorBody(t, res)
						want := tc.codes
						if tc.code != "" {
							want = []envelope.Code{tc.code}
						}
						if !codeIn(b.Code, want) || b.Message == "" {
							t.Fatalf("want %v, got %+v", want, b)
						}
					}
					if tc.check != nil {
						tc.check(t, e, res)
					}
				})
			}
		})
	}
}

// TestSetAlertIdempotentPerKey: the same key twice is one alert, the second
// call sends no SetAlert; a new key is a new alert.
func TestSetAlertIdempotentPerKey(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	args := map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_BELOW", "value": 1000, "idempotency_key": "dip-buy"}
	first := servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", args))
	again := servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", args))
	if first.Status != "set" || again.Status != "already_set" || again.AlertID != first.AlertID {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	noKey := map[string]any{"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_BELOW", "value": 1001}
	a := servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", noKey))
	b := servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", noKey))
	if a.AlertID != b.AlertID || b.Status != "already_set" || a.AlertID == first.AlertID {
		t.Fatalf("derived key: %+v %+v", a, b)
	}
	if n := e.fake.PendingAlertCount(e.uid); n != 2 {
		t.Fatalf("pending alerts at the broker: %d, want 2", n)
	}
}

// TestAlertFiresOnUpdatesResource: when the fake's price crosses a pending
// alert, the alert frame reaches shoonya://orders/updates (kind alert) and
// leaves the pending list.
func TestAlertFiresOnUpdatesResource(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	waitFor(t, 5*time.Second, "the order-update ack", func() bool { return readUpdates(t, e.conn.Client).Socket.OrderUpdates })
	lp, _ := e.fake.LastPrice("NSE", "2885")
	out := servetest.Decode[tools.AlertOut](t, e.call("set_price_alert", map[string]any{
		"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "condition": "LTP_ABOVE", "value": lp + 50, "idempotency_key": "fire-test"}))
	if err := e.fake.SetPrice("NSE", "2885", lp+60); err != nil {
		t.Fatal(err)
	}
	var got feed.Update
	waitFor(t, 5*time.Second, "the alert firing on the resource", func() bool {
		for _, u := range readUpdates(t, e.conn.Client).Updates {
			if u.Kind == "alert" && u.AlertID == out.AlertID {
				got = u
				return true
			}
		}
		return false
	})
	if got.Condition != "LTP_ABOVE" || got.Threshold == nil || *got.Threshold != lp+50 || got.LastPrice == nil || *got.LastPrice < lp+50 || got.TradingSymbol != "RELIANCE-EQ" {
		t.Fatalf("%+v", got)
	}
	list := servetest.Decode[tools.AlertsOut](t, e.call("list_price_alerts", nil))
	for _, a := range list.Alerts {
		if a.AlertID == out.AlertID {
			t.Fatal("a fired alert is still pending")
		}
	}
}

// TestExcludeAlertsToolset: --exclude-tools alerts turns the group off.
func TestExcludeAlertsToolset(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{args: []string{"--exclude-tools", "alerts"}})
	for _, tl := range e.conn.Tools(t) {
		if strings.Contains(tl.Name, "price_alert") {
			t.Fatalf("%s is listed with the alerts toolset excluded", tl.Name)
		}
	}
}

// TestReadOnlyDropsAlertWrites: --read-only keeps list_price_alerts only.
func TestReadOnlyDropsAlertWrites(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{args: []string{"--read-only"}})
	names := map[string]bool{}
	for _, tl := range e.conn.Tools(t) {
		names[tl.Name] = true
	}
	if !names["list_price_alerts"] || names["set_price_alert"] || names["modify_price_alert"] || names["cancel_price_alert"] {
		t.Fatalf("read-only tools: %v", names)
	}
}
