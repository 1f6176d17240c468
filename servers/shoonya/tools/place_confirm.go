package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/confirm"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
)

// placeWrite is place_order's confirmation: limits and guards first, an
// order already placed under its key answers already_placed, a repeat
// inside the duplicate window is confirmed as a SECOND order.
func (d *Deps) placeWrite() write[PlaceIn, PlaceOut] {
	return write[PlaceIn, PlaceOut]{
		tool: confirm.PlaceOrder,
		vet: func(ctx context.Context, in *PlaceIn) (plan[PlaceOut], error) {
			o, err := mapOrder(*in)
			if err != nil {
				return plan[PlaceOut]{}, err
			}
			if o.Price > 0 || o.Trigger > 0 {
				if err := d.Limits.CheckStatic(o.Exch, defaultStr(in.Product, "CNC"), o.Qty, max(o.Price, o.Trigger)); err != nil {
					return plan[PlaceOut]{}, err
				}
			}
			g := d.guard()
			if err := g.CheckTrading(ctx, user(ctx)); err != nil {
				return plan[PlaceOut]{}, err
			}
			if d.paper(ctx) {
				return plan[PlaceOut]{direct: true}, nil // nothing reaches the broker: no yes needed
			}
			key := d.keyOf(ctx, *in, o)
			if e, err := g.Placed(ctx, user(ctx), key); err != nil {
				return plan[PlaceOut]{}, err
			} else if e != nil {
				return plan[PlaceOut]{done: &PlaceOut{OrderID: e.OrderNo, IdempotencyKey: key, Outcome: "already_placed", Mode: string(guard.Live), Next: alreadyPlacedNext}}, nil
			}
			rep, err := g.Check(ctx, user(ctx), guardOrder(o, key), true)
			if err != nil {
				return plan[PlaceOut]{}, err
			}
			in.IdempotencyKey = key // the ticket and the page place exactly this order
			p := plan[PlaceOut]{summary: summary(*in, o.Qty), dup: rep != nil}
			if rep != nil {
				p.warning = fmt.Sprintf("This repeats an order sent %s ago (%s, idempotency key %s). Confirm only if you want a SECOND order.",
					d.now().Sub(rep.At).Round(time.Second), firstNonEmpty(rep.OrderNo, "answer pending"), rep.Key)
			}
			return p, nil
		},
		send:      d.place,
		beforeAsk: d.marginBeforeAsking,
		pending: func(in PlaceIn, c pendingConfirm) PlaceOut {
			return PlaceOut{IdempotencyKey: in.IdempotencyKey, Outcome: "confirmation_required", Mode: string(guard.Live),
				ConfirmURL: c.URL, ConfirmExpires: c.Expires, Next: c.Next}
		},
		said: func(out PlaceOut) string {
			if out.Outcome == "already_placed" {
				return "Already placed earlier as order " + out.OrderID + "; nothing new was sent."
			}
			s := "Placed: order " + out.OrderID + " (" + out.Outcome + ")."
			if out.Converted != "" {
				s += " " + out.Converted + "."
			}
			return s + " The assistant can follow it with get_order_book."
		},
		then: "Then check get_order_book.",
	}
}
