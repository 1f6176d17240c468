package tools_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestGTT: place_gtt, get_gtts and cancel_gtt against the fake.
func TestGTT(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{extra: fastTimeouts, cfg: fake.Config{TickInterval: -1, RateLimit: fake.RateLimit{Disabled: true}}})
	e.connect()
	lp, _ := e.fake.LastPrice("NSE", "3045") // SBIN-EQ
	below := float64(int(lp*0.9*20)) / 20
	gtt := func(over map[string]any) func(*env) map[string]any {
		return func(*env) map[string]any {
			m := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 2, "trigger_price": below, "price": below}
			for k, v := range over {
				m[k] = v
			}
			return m
		}
	}
	// An empty list is Noren's "no data", and says so.
	if res := servetest.ResultJSON(e.call("get_gtts", nil)); !strings.Contains(res, `"gtts":[]`) || !strings.Contains(res, "no data") {
		t.Fatalf("empty: %s", res)
	}
	var id string
	runWriteCases(t, e, "place_gtt", "PlaceGTTOrder", []writeCase{
		{name: "success", args: gtt(nil), sent: 1, check: func(t *testing.T, e *env, res string) {
			out := servetest.Decode[tools.GTTsOut](t, e.call("get_gtts", nil))
			if len(out.GTTs) != 1 || out.GTTs[0].When != "below" || out.GTTs[0].TriggerPrice != below || out.GTTs[0].Side != "BUY" || !out.Complete {
				t.Fatalf("%+v (%s)", out, res)
			}
			id = out.GTTs[0].GTTID
			if !strings.Contains(res, `"gtt_id":"`+id+`"`) || !strings.Contains(res, "goes below") {
				t.Fatalf("%s", res)
			}
		}},
		{name: "same GTT again: not placed twice", args: gtt(nil), check: func(t *testing.T, _ *env, res string) {
			if !strings.Contains(res, `"outcome":"already_placed"`) {
				t.Fatalf("%s", res)
			}
		}},
		{name: "broker refuses", args: gtt(map[string]any{"quantity": 3}), fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgInvalidInput}, code: envelope.InvalidArgument, sent: 1},
		{name: "trigger at the last price", args: gtt(map[string]any{"trigger_price": lp}), code: envelope.InvalidArgument, field: "trigger_price"},
		{name: "trigger off tick", args: gtt(map[string]any{"trigger_price": below + 0.01}), code: envelope.InvalidArgument, field: "trigger_price"},
		{name: "price outside the circuit", args: gtt(map[string]any{"price": lp * 3}), code: envelope.InvalidArgument, field: "price"},
		{name: "bad side", args: gtt(map[string]any{"side": "HOLD"}), code: envelope.InvalidArgument},
		{name: "429 not retried", args: gtt(map[string]any{"quantity": 4}), fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited, sent: 1},
		{name: "timeout: outcome unknown", args: gtt(map[string]any{"quantity": 5}), fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown, sent: 1},
	})
	// A refused list read is an error, never "no GTTs".
	e.fake.SetFault("GetPendingGTTOrder", fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgHoldingsMissing, Times: 1})
	if body := servetest.ErrorBody(t, e.call("get_gtts", nil)); body.Code == "" || !strings.Contains(servetest.ResultJSON(e.call("get_gtts", nil)), id) {
		t.Fatalf("refused list: %+v", body)
	}
	runWriteCases(t, e, "cancel_gtt", "CancelGTTOrder", []writeCase{
		{name: "429", args: func(*env) map[string]any { return map[string]any{"gtt_id": id} }, fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited, sent: 1},
		{name: "success", args: func(*env) map[string]any { return map[string]any{"gtt_id": id} }, sent: 1},
		{name: "not pending: broker's text", args: func(*env) map[string]any { return map[string]any{"gtt_id": id} }, code: envelope.InvalidArgument, sent: 1,
			check: func(t *testing.T, _ *env, res string) {
				if !strings.Contains(res, "Alert Id not found") {
					t.Fatalf("%s", res)
				}
			}},
		{name: "bad id", args: func(*env) map[string]any { return map[string]any{"gtt_id": "no such!"} }, code: envelope.InvalidArgument},
		{name: "timeout", args: func(*env) map[string]any { return map[string]any{"gtt_id": "1234"} }, fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.OutcomeUnknown, sent: 1},
	})
}

// TestGTTConfirmedPaperHalted: place_gtt needs a person's yes (the page
// shows the condition), is refused in paper mode and when halted, and
// sends nothing in either.
func TestGTTConfirmedPaperHalted(t *testing.T) {
	args := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "SELL", "quantity": 1, "trigger_price": 900, "price": 899.5}
	e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}, cfg: fake.Config{TickInterval: -1}})
	e.connect()
	out := servetest.Decode[tools.GTTOut](t, e.call("place_gtt", args))
	if out.Outcome != "confirmation_required" || routeCalls(e, "PlaceGTTOrder") != 0 {
		t.Fatalf("%+v", out)
	}
	if body := getBody(t, out.ConfirmURL); !strings.Contains(body, "goes above 900: SELL 1 at LIMIT 899.5") {
		t.Fatalf("page: %s", body)
	}
	if got := postConfirm(t, out.ConfirmURL, confirmPage(t, out.ConfirmURL), nil); !strings.Contains(got.body, "GTT placed") || routeCalls(e, "PlaceGTTOrder") != 1 {
		t.Fatalf("POST: %s", got.body)
	}
	for _, mode := range []string{"paper", "halted"} {
		p := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_TRADING": mode}})
		p.connect()
		if body := servetest.ErrorBody(t, p.call("place_gtt", args)); body.Code != envelope.PermissionDenied || routeCalls(p, "PlaceGTTOrder") != 0 {
			t.Fatalf("%s: %+v", mode, body)
		}
	}
}
