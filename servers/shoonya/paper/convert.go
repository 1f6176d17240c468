package paper

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Convert moves qty of user's position in exch/tsym from product from to
// product to (Noren codes), as ProductConversion does: the fills that built
// the position are re-tagged, newest first, splitting one where qty ends,
// so the quantity keeps its price and no P&L is booked.
func (b *Book) Convert(ctx context.Context, user, exch, tsym, from, to string, qty int) error {
	_, err := b.update(ctx, user, func(l *Ledger) error {
		net := 0
		for _, p := range l.Positions() {
			if p.Exch == exch && p.TSym == tsym && p.Product == from {
				net = p.Net
			}
		}
		side := "B"
		if net < 0 {
			side, net = "S", -net
		}
		if net < qty || qty < 1 {
			return envelope.Invalid("quantity", "only %d of %s are open in the paper position; pass quantity ≤ %d", net, tsym, net)
		}
		left := qty
		for i := len(l.Trades) - 1; i >= 0 && left > 0; i-- {
			t := &l.Trades[i]
			if t.Exch != exch || t.TSym != tsym || t.Product != from || t.Side != side {
				continue
			}
			if t.Qty > left {
				moved := *t
				moved.ID, moved.Qty, moved.Product = t.ID+"-c", left, to
				t.Qty -= left
				l.Trades = append(l.Trades, moved)
				left = 0
				break
			}
			t.Product = to
			left -= t.Qty
		}
		return nil
	})
	return err
}
