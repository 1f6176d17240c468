package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/paper"
)

// ExitIn is exit_order's input.
type ExitIn struct {
	OrderID string `json:"order_id" jsonschema:"from get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
	Product string `json:"product,omitempty" jsonschema:"default: the order's" mcp:"enum=COVER|BRACKET"`
}

// ExitOut is exit_order's result.
type ExitOut struct {
	OrderID        string `json:"order_id"`
	Product        string `json:"-"`
	Outcome        string `json:"outcome"` // exit_requested, confirmation_required
	Mode           string `json:"mode"`
	Next           string `json:"next"`
	ConfirmURL     string `json:"confirm_url,omitempty"`
	ConfirmExpires string `json:"confirm_expires,omitempty"`
}

func exitOrderTool(d *Deps) toolkit.Tool {
	w := d.exitWrite()
	t := toolkit.New(toolkit.Def{
		Name: "exit_order", Title: "Exit CO/BO order", Toolset: "orders",
		Description: "Exit a COVER/BRACKET order early: legs cancelled, fill squared off. " +
			"User confirms (confirmation_required: give them confirm_url). outcome_unknown: check get_order_book.",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in ExitIn) (ExitOut, error) { return w.send(ctx, in, false) })
	return withConfirmation(d, t, w)
}

// exitWrite: an exit only closes, so like cancel_order it goes when trading
// is halted or frozen (a person still confirms it).
func (d *Deps) exitWrite() write[ExitIn, ExitOut] {
	return write[ExitIn, ExitOut]{
		tool: "exit_order",
		vet: func(ctx context.Context, in *ExitIn) (plan[ExitOut], error) {
			if d.paper(ctx) {
				return plan[ExitOut]{direct: true}, nil
			}
			ob, err := do(ctx, d, func(a *noren.Auth) (*noren.Order, error) { return d.findOrder(ctx, a, in.OrderID) })
			if err != nil {
				return plan[ExitOut]{}, err
			}
			prd, err := exitProduct(*in, ob.Product)
			if err != nil {
				return plan[ExitOut]{}, err
			}
			in.Product = orders.ProductName(prd)
			return plan[ExitOut]{button: "Exit this order", summary: fmt.Sprintf("Exit a REAL %s order on Shoonya: order %s (%s %d %s on %s, %s, %d filled): its open legs are cancelled and the filled quantity is squared off at market?",
				in.Product, in.OrderID, orders.SideName(ob.TranType), int(ob.Qty), ob.TSym, ob.Exch, orders.Status(ob.Status), int(ob.FillShares))}, nil
		},
		send: func(ctx context.Context, in ExitIn, _ bool) (ExitOut, error) {
			if d.paper(ctx) {
				return d.exitPaper(ctx, in)
			}
			prd, err := orders.Code("product", orders.Products, in.Product)
			if err != nil || (prd != "H" && prd != "B") {
				return ExitOut{}, envelope.Invalid("product", "exit_order takes product COVER or BRACKET")
			}
			if _, err := do(ctx, d, func(a *noren.Auth) (string, error) { return d.client().ExitSNOOrder(ctx, a, in.OrderID, prd) }); err != nil {
				return ExitOut{}, err
			}
			return ExitOut{OrderID: in.OrderID, Product: in.Product, Outcome: "exit_requested", Mode: string(guard.Live),
				Next: "check get_order_book (legs CANCELED, a square-off order COMPLETE) and get_positions"}, nil
		},
		pending: func(in ExitIn, c pendingConfirm) ExitOut {
			return ExitOut{OrderID: in.OrderID, Product: in.Product, Outcome: "confirmation_required", Mode: string(guard.Live),
				ConfirmURL: c.URL, ConfirmExpires: c.Expires, Next: c.Next}
		},
		said: func(out ExitOut) string {
			return "Exit requested for order " + out.OrderID + ". The assistant can follow it with get_order_book."
		},
		then: "Then check get_order_book.",
	}
}

// exitProduct is the Noren product to exit with: the order's, which must be
// COVER (H) or BRACKET (B) — ExitSNOOrder is "Allowed for only H and B
// products" (ShoonyaApi-py README exit_order).
func exitProduct(in ExitIn, orderPrd string) (string, error) {
	if orderPrd != "H" && orderPrd != "B" {
		return "", envelope.Invalid("order_id", "order %s is %s, not a COVER or BRACKET order; close it with cancel_order or an opposite place_order", in.OrderID, orders.ProductName(orderPrd))
	}
	if in.Product != "" && !strings.EqualFold(orders.ProductName(orderPrd), in.Product) {
		return "", envelope.Invalid("product", "order %s is a %s order, not %s; leave product out", in.OrderID, orders.ProductName(orderPrd), strings.ToUpper(in.Product))
	}
	return orderPrd, nil
}

// findOrder is today's order id from the broker's order book.
func (d *Deps) findOrder(ctx context.Context, a *noren.Auth, id string) (*noren.Order, error) {
	book, err := d.client().OrderBook(ctx, a)
	if err != nil {
		return nil, err
	}
	for i := range book {
		if book[i].OrderNo == id {
			return &book[i], nil
		}
	}
	return nil, envelope.New(envelope.NotFound, "no order %s in today's order book; get_order_book lists the orders", id)
}

// exitPaper exits a paper COVER/BRACKET order: an open one is cancelled, a
// filled one squared off by an opposite order at the live quote.
func (d *Deps) exitPaper(ctx context.Context, in ExitIn) (ExitOut, error) {
	l, err := d.paperBook().Read(ctx, user(ctx))
	if err != nil {
		return ExitOut{}, err
	}
	var o *paper.Order
	for i := range l.Orders {
		if l.Orders[i].ID == in.OrderID {
			o = &l.Orders[i]
		}
	}
	if o == nil {
		return ExitOut{}, envelope.New(envelope.NotFound, "no paper order %s today; get_order_book lists the paper orders", in.OrderID)
	}
	if _, err := exitProduct(in, o.Product); err != nil {
		return ExitOut{}, err
	}
	out := ExitOut{OrderID: o.ID, Product: orders.ProductName(o.Product), Outcome: "exit_requested", Mode: string(guard.Paper)}
	switch o.Status {
	case paper.Open, paper.TriggerPending:
		if _, err := d.paperBook().Cancel(ctx, user(ctx), o.ID); err != nil {
			return ExitOut{}, err
		}
		out.Next = paperNote + "the open paper order was cancelled; get_order_book shows it"
		return out, nil
	case paper.Complete:
	default:
		return ExitOut{}, envelope.New(envelope.Conflict, "paper order %s is %s; nothing to exit", o.ID, o.Status)
	}
	side := map[string]string{"B": "SELL", "S": "BUY"}[o.Side]
	sq, err := d.placePaperExit(ctx, *o, side)
	if err != nil {
		return ExitOut{}, err
	}
	out.Next = fmt.Sprintf("%ssquared off by paper order %s (%s %d at the live quote); get_positions shows it", paperNote, sq, side, o.Filled)
	return out, nil
}

// placePaperExit books the paper order that closes o's fill at the live quote.
func (d *Deps) placePaperExit(ctx context.Context, o paper.Order, side string) (string, error) {
	type res struct{ id string }
	r, err := do(ctx, d, func(a *noren.Auth) (res, error) {
		inst, err := d.instrument(ctx, a, o.Exch, o.TSym)
		if err != nil {
			return res{}, err
		}
		if inst.LTP <= 0 {
			return res{}, envelope.New(envelope.UpstreamUnavailable, "%s has no last price to square off at; try again", o.TSym).WithRetryable(true)
		}
		code, _ := orders.Code("side", orders.Sides, side)
		po, _, err := d.paperBook().Place(ctx, user(ctx), paper.Order{Key: "exit-" + o.ID, Exch: o.Exch, TSym: o.TSym, Token: inst.Token,
			Side: code, Product: o.Product, PriceType: "LMT", Qty: o.Filled, Price: inst.LTP, Validity: "DAY"}, inst.LTP)
		return res{po.ID}, err
	})
	return r.id, err
}
