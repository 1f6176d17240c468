package tools_test

import (
	"fmt"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestFinishedOrderAnswersAsLive: modifying or cancelling an order that is
// no longer open answers conflict with its status (Noren says "Rejected :
// ORA:Order not found to Cancel" for it, as for an order that never was),
// in paper mode as live, so what a model learns on paper holds with money.
func TestFinishedOrderAnswersAsLive(t *testing.T) {
	for _, mode := range []string{"live", "paper"} {
		t.Run(mode, func(t *testing.T) {
			extra := map[string]string{}
			if mode == "paper" {
				extra["SHOONYA_TRADING"] = "paper"
			}
			e := newEnv(t, noren.Legacy, envOpt{extra: extra})
			e.connect()
			mkt := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
				"side": "BUY", "quantity": 1, "order_type": "MARKET", "product": "INTRADAY", "idempotency_key": "done-" + mode}))
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{"modify_order", map[string]any{"order_id": mkt.OrderID, "quantity": 2}},
				{"cancel_order", map[string]any{"order_id": mkt.OrderID}},
			} {
				b := servetest.ErrorBody(t, e.call(c.tool, c.args))
				if b.Code != envelope.Conflict || b.Details["status"] != "COMPLETE" {
					t.Errorf("%s of a filled order: %s", c.tool, fmt.Sprintf("%+v", b))
				}
			}
		})
	}
}
