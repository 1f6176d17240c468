package tools_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestOrderHistory: get_order_history against the fake, table-driven: every
// state newest first with times, fills and reject reasons; an unknown order
// is not_found naming get_order_book; refusals, bad arguments, a 429 and a
// timeout are errors.
func TestOrderHistory(t *testing.T) {
	env := map[string]string{"SHOONYA_MAX_ORDER_VALUE": "0", "SHOONYA_MAX_ORDER_QTY": "0"}
	for k, v := range fastTimeouts {
		env[k] = v
	}
	e := quietEnv(t, fake.Config{}, env)
	lp, _ := e.fake.LastPrice("NSE", "3045")
	place := func(over map[string]any) string {
		return servetest.Decode[tools.PlaceOut](t, e.call("place_order", order(over))).OrderID
	}
	filled := place(map[string]any{"price": lp + 5, "idempotency_key": "hist-fill"})
	open := place(map[string]any{"price": lp - 50, "idempotency_key": "hist-open"})
	e.fake.SetFault("GetOrderMargin", fake.Fault{Kind: fake.FaultStatus, Status: 404, Times: 1}) // let the broker reject it
	rejected := place(map[string]any{"trading_symbol": "TCS-EQ", "quantity": 1000, "price": 3100, "idempotency_key": "hist-rej"})
	cases := []struct {
		name    string
		id      string
		fault   *fake.Fault
		status  string
		reports []string
		reason  string
		code    envelope.Code
		text    string
	}{
		{name: "filled", id: filled, status: "COMPLETE", reports: []string{"Fill", "New", "NewAck", "PendingNew"}},
		{name: "open", id: open, status: "OPEN", reports: []string{"New", "NewAck", "PendingNew"}},
		{name: "rejected", id: rejected, status: "REJECTED", reports: []string{"Rejected", "NewAck", "PendingNew"}, reason: fake.RejInsufficient},
		{name: "unknown order", id: "99999999999999", code: envelope.NotFound, text: "get_order_book"},
		{name: "bad order id", id: "12 34", code: envelope.InvalidArgument, text: "order_id"},
		{name: "session expired is not empty", id: open, fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgServerTimeout}, code: envelope.UpstreamUnavailable},
		{name: "429", id: open, fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited},
		{name: "timeout", id: open, fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != nil {
				e.fake.SetFault("SingleOrdHist", *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, "get_order_history", map[string]any{"order_id": c.id})
			if c.code != "" {
				body := servetest.ErrorBody(t, res)
				if body.Code != c.code && !(c.code == envelope.RateLimited && body.Code == envelope.Timeout) {
					t.Fatalf("want %s, got %+v", c.code, body)
				}
				if !strings.Contains(body.Message+" "+anyText(body.Details["field"]), c.text) {
					t.Fatalf("want %q named: %+v", c.text, body)
				}
				return
			}
			out := servetest.Decode[tools.HistoryOut](t, res)
			rows := out.List()
			if out.OrderID != c.id || out.Status != c.status || !out.Complete || len(rows) != len(c.reports) {
				t.Fatalf("history: %+v", out)
			}
			for i, r := range rows {
				if r.Report != c.reports[i] || r.At == "" || !strings.HasSuffix(r.At, "+05:30") {
					t.Fatalf("row %d: %+v", i, r)
				}
			}
			if rows[0].RejectReason != c.reason || c.status == "COMPLETE" && (rows[0].Filled != 1 || rows[0].AveragePrice <= 0) {
				t.Fatalf("newest row: %+v", rows[0])
			}
		})
	}
}
