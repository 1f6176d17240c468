package tools

import (
	"errors"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestModifyQuantityIsTheTotal: modify_order's quantity is the new total
// (Noren's qty, filled shares included). On a partly filled order a total at
// or below the filled shares is refused before anything is sent, naming the
// filled count; above it, it goes out as given.
func TestModifyQuantityIsTheTotal(t *testing.T) {
	ob := noren.Order{OrderNo: "1", Exch: "NFO", TSym: "NIFTY25NOVF", Status: "OPEN", PriceType: "LMT",
		Price: 700, Qty: 150, FillShares: 75}
	for _, c := range []struct {
		qty     int
		refused bool
	}{{0, false}, {75, true}, {50, true}, {225, false}} {
		got, err := completeModify(ModifyIn{OrderID: "1", Quantity: c.qty, Price: 705}, ob)
		var e *envelope.Error
		switch {
		case c.refused && (!errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Details["filled"] != 75):
			t.Errorf("quantity %d: %v, want invalid_argument naming 75 filled", c.qty, err)
		case !c.refused && err != nil:
			t.Errorf("quantity %d: %v", c.qty, err)
		case !c.refused && c.qty == 0 && got.Quantity != 150:
			t.Errorf("no quantity: sent %d, want the order's 150", got.Quantity)
		}
	}
}
