package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// BasketLeg is one order of a basket.
type BasketLeg struct {
	Exchange      string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol"`
	Side          string  `json:"side" mcp:"enum=BUY|SELL"`
	Quantity      int     `json:"quantity" mcp:"min=1"`
	OrderType     string  `json:"order_type" mcp:"enum=LIMIT|MARKET"`
	Price         float64 `json:"price,omitempty"`
	Product       string  `json:"product,omitempty" jsonschema:"default CNC" mcp:"enum=CNC|INTRADAY|NORMAL"`
}

// BasketIn is place_basket's input.
type BasketIn struct {
	Legs           []BasketLeg `json:"legs" mcp:"minItems=2;maxItems=10"`
	IdempotencyKey string      `json:"idempotency_key,omitempty" mcp:"pattern=^[A-Za-z0-9_.:-]{4,36}$"`
}

// BasketLegOut is what became of one leg, in sending order.
type BasketLegOut struct {
	Leg           int    `json:"leg"`
	TradingSymbol string `json:"trading_symbol"`
	Status        string `json:"status"` // placed, already_placed, rejected, failed, outcome_unknown, not_sent
	OrderID       string `json:"order_id,omitempty"`
	Reason        string `json:"reason,omitempty"`
}

// BasketOut is place_basket's result.
type BasketOut struct {
	Outcome        string         `json:"outcome"` // placed, partial, confirmation_required
	Mode           string         `json:"mode"`
	IdempotencyKey string         `json:"-"` // named in next
	Legs           []BasketLegOut `json:"legs"`
	Next           string         `json:"next"`
	ConfirmURL     string         `json:"confirm_url,omitempty"`
	ConfirmExpires string         `json:"confirm_expires,omitempty"`
}

func placeBasketTool(d *Deps) toolkit.Tool {
	w := d.basketWrite()
	t := toolkit.New(toolkit.Def{
		Name: "place_basket", Title: "Place basket", Toolset: "orders",
		Description: "A basket or options spread, confirmed once, sent leg by leg, buys first; a refused leg stops the rest. " +
			"Same key never resends a leg. confirmation_required: give the user confirm_url.",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in BasketIn) (BasketOut, error) { return w.send(ctx, in, false) })
	return withConfirmation(d, t, w)
}

// legIn is leg i of a basket as place_order takes it, under the leg's own
// idempotency key (the basket's key and the leg's place in sending order),
// so sending the basket again never places a leg twice.
func legIn(l BasketLeg, key string, i int) PlaceIn {
	return PlaceIn{Exchange: strings.ToUpper(l.Exchange), TradingSymbol: strings.TrimSpace(l.TradingSymbol), Side: l.Side, Quantity: l.Quantity,
		OrderType: l.OrderType, Price: l.Price, Product: defaultStr(l.Product, "CNC"), IdempotencyKey: fmt.Sprintf("%s:%d", key, i+1)}
}

// sendingOrder puts the buys before the sells, keeping the caller's order
// within each. For an options spread the bought leg is the hedge: Indian
// exchanges' SPAN margin gives the sold leg the hedge benefit only when
// the hedge is already in the book, so a short leg sent first is margined
// naked (several times the spread's margin) and may be rejected for funds;
// sent second it needs only the spread's margin. A sell of shares held
// needs no margin, so doing it last costs nothing.
func sendingOrder(legs []BasketLeg) []BasketLeg {
	out := append([]BasketLeg(nil), legs...)
	sort.SliceStable(out, func(i, j int) bool {
		return strings.EqualFold(out[i].Side, "BUY") && !strings.EqualFold(out[j].Side, "BUY")
	})
	return out
}

// basketKey is the request's key: the caller's, or one derived from the
// legs, the user and the IST day (a re-sent call derives the same one).
func (d *Deps) basketKey(ctx context.Context, in BasketIn) string {
	if in.IdempotencyKey != "" {
		return in.IdempotencyKey
	}
	b, _ := json.Marshal(in.Legs)
	sum := sha256.Sum256(fmt.Appendf(nil, "%s|%s|%s", user(ctx), d.now().In(istZone).Format("2006-01-02"), b))
	return "bkt-" + hex.EncodeToString(sum[:])[:16]
}

func (d *Deps) basketWrite() write[BasketIn, BasketOut] {
	return write[BasketIn, BasketOut]{
		tool: "place_basket",
		vet: func(ctx context.Context, in *BasketIn) (plan[BasketOut], error) {
			in.Legs = sendingOrder(in.Legs)
			in.IdempotencyKey = d.basketKey(ctx, *in)
			g := d.guard()
			if err := g.CheckTrading(ctx, user(ctx)); err != nil {
				return plan[BasketOut]{}, err
			}
			p := plan[BasketOut]{button: fmt.Sprintf("Place these %d orders", len(in.Legs)),
				summary: fmt.Sprintf("Place a REAL basket of %d orders on Shoonya, one after another (buys first); if one is refused the rest are not sent:", len(in.Legs))}
			placed := 0
			for i, l := range in.Legs {
				pin := legIn(l, in.IdempotencyKey, i)
				o, err := mapOrder(pin)
				if err != nil {
					return plan[BasketOut]{}, legErr(i, err)
				}
				if o.Price > 0 {
					if err := d.Limits.CheckStatic(o.Exch, pin.Product, o.Qty, o.Price); err != nil {
						return plan[BasketOut]{}, legErr(i, err)
					}
				}
				if !d.paper(ctx) {
					if e, err := g.Placed(ctx, user(ctx), pin.IdempotencyKey); err != nil {
						return plan[BasketOut]{}, err
					} else if e != nil {
						placed++
						p.legs = append(p.legs, "already placed as order "+e.OrderNo+": "+legLine(pin, o.Qty))
						continue
					}
					rep, err := g.Check(ctx, user(ctx), guardOrder(o, pin.IdempotencyKey), true)
					if err != nil {
						return plan[BasketOut]{}, legErr(i, err)
					}
					if rep != nil {
						p.dup = true
						p.warning = fmt.Sprintf("Leg %d repeats an order sent just now (%s). Confirm only if you want it again.", i+1, firstNonEmpty(rep.OrderNo, rep.Key))
					}
				}
				p.legs = append(p.legs, legLine(pin, o.Qty))
			}
			// Lot, tick and circuit of every leg before anyone is asked, so a
			// basket is not refused half-way for what could be known now.
			if _, err := do(ctx, d, func(a *noren.Auth) (struct{}, error) {
				for i, l := range in.Legs {
					pin := legIn(l, in.IdempotencyKey, i)
					o, _ := mapOrder(pin)
					inst, err := d.instrument(ctx, a, o.Exch, o.TSym)
					if err != nil {
						return struct{}{}, legErr(i, err)
					}
					if _, err := prepare(&o, pin, inst); err != nil {
						return struct{}{}, legErr(i, err)
					}
				}
				return struct{}{}, nil
			}); err != nil {
				return plan[BasketOut]{}, err
			}
			if d.paper(ctx) {
				p.direct = true
			}
			if placed == len(in.Legs) {
				out, err := d.sendBasket(ctx, *in, false)
				return plan[BasketOut]{done: &out}, err // every leg placed already: nothing is sent
			}
			return p, nil
		},
		send: d.sendBasket,
		pending: func(in BasketIn, c pendingConfirm) BasketOut {
			out := BasketOut{Outcome: "confirmation_required", Mode: string(guard.Live), IdempotencyKey: in.IdempotencyKey,
				ConfirmURL: c.URL, ConfirmExpires: c.Expires, Next: c.Next}
			for i, l := range in.Legs {
				out.Legs = append(out.Legs, BasketLegOut{Leg: i + 1, TradingSymbol: l.TradingSymbol, Status: "not_sent"})
			}
			return out
		},
		said: func(out BasketOut) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Basket %s:", out.Outcome)
			for _, l := range out.Legs {
				fmt.Fprintf(&b, " leg %d %s %s", l.Leg, l.TradingSymbol, l.Status)
				if l.OrderID != "" {
					fmt.Fprintf(&b, " (order %s)", l.OrderID)
				}
				b.WriteString(";")
			}
			return b.String() + " The assistant can follow it with get_order_book."
		},
		then: "Then check get_order_book.",
	}
}

func legErr(i int, err error) error {
	e := envelope.From(err)
	c := *e
	c.Message = fmt.Sprintf("leg %d (in sending order, buys first): %s; nothing was sent", i+1, e.Message)
	return c.WithDetail("leg", i+1)
}

func legLine(in PlaceIn, qty int) string {
	px := "MARKET (sent as a protective LIMIT near the last price)"
	if in.OrderType == "LIMIT" {
		px = fmt.Sprintf("LIMIT %g", in.Price)
	}
	return fmt.Sprintf("%s %d %s on %s, %s, product %s", in.Side, qty, in.TradingSymbol, in.Exchange, px, in.Product)
}

// sendBasket sends the legs in order, each once under its own key, and
// stops at the first leg that is refused, fails or whose outcome is
// unknown: the rest are not sent, and the result names every leg's fate.
// Nothing is retried here; calling again with the same key skips the
// legs already placed (already_placed) and sends only the rest.
func (d *Deps) sendBasket(ctx context.Context, in BasketIn, dup bool) (BasketOut, error) {
	mode := guard.Live
	if d.paper(ctx) {
		mode = guard.Paper
	}
	out := BasketOut{Outcome: "placed", Mode: string(mode), IdempotencyKey: in.IdempotencyKey}
	stopped := -1
	for i, l := range in.Legs {
		lo := BasketLegOut{Leg: i + 1, TradingSymbol: l.TradingSymbol, Status: "not_sent"}
		if stopped >= 0 {
			out.Legs = append(out.Legs, lo)
			continue
		}
		pin := legIn(l, in.IdempotencyKey, i)
		res, err := d.place(ctx, pin, dup)
		switch {
		case err != nil:
			e := envelope.From(err)
			lo.Status, lo.Reason = "failed", e.Message
			if e.Code == envelope.OutcomeUnknown {
				lo.Status = "outcome_unknown"
			}
			stopped = i
		default:
			lo.OrderID, lo.Status = res.OrderID, res.Outcome
			if res.Outcome == "recovered" {
				lo.Status = "placed"
			}
			if why, err := d.rejectedInBook(ctx, res.OrderID, mode); err != nil && i < len(in.Legs)-1 {
				// Not knowing whether this leg stands, the next must not go (a
				// short leg without its hedge is the half-spread to avoid).
				lo.Reason = "accepted, but its status could not be read (" + envelope.From(err).Message + "), so the next legs were not sent"
				stopped = i
			} else if why != "" {
				lo.Status, lo.Reason = "rejected", why
				stopped = i
			}
		}
		out.Legs = append(out.Legs, lo)
	}
	if stopped < 0 {
		out.Next = "every leg was accepted; accepted is not executed: check get_order_book"
		return out, nil
	}
	out.Outcome = "partial"
	var went, not []string
	for i, l := range out.Legs {
		switch l.Status {
		case "placed", "already_placed":
			went = append(went, fmt.Sprintf("leg %d %s %s (order %s)", l.Leg, in.Legs[i].Side, l.TradingSymbol, l.OrderID))
		case "not_sent":
			not = append(not, fmt.Sprintf("leg %d", l.Leg))
		}
	}
	bad := out.Legs[stopped]
	out.Next = fmt.Sprintf("STOPPED at leg %d (%s %s: %s %s). ", bad.Leg, in.Legs[stopped].Side, bad.TradingSymbol, bad.Status, bad.Reason)
	if len(went) > 0 {
		out.Next += "These went through and are live: " + strings.Join(went, ", ") + " — the basket is now one-sided; tell the user and decide together whether to complete it or close them (cancel_order, or an opposite place_order). "
	} else {
		out.Next += "No leg went through. "
	}
	if len(not) > 0 {
		out.Next += "Not sent: " + strings.Join(not, ", ") + ". "
	}
	if bad.Status == "outcome_unknown" {
		out.Next += "Leg " + fmt.Sprint(bad.Leg) + "'s answer was lost: check get_order_book. "
	}
	out.Next += "Calling place_basket again with idempotency_key " + in.IdempotencyKey + " never places a leg twice (placed legs answer already_placed)."
	return out, nil
}

// rejectedInBook reads the order book right after a leg is accepted: the
// OMS accepts an order and its RMS may reject it a moment later (ShoonyaApi-py
// README OrderBook: status REJECTED with rejreason), which for a spread
// means the next leg must not go. "" when not rejected.
func (d *Deps) rejectedInBook(ctx context.Context, orderID string, mode guard.Mode) (string, error) {
	if mode == guard.Paper || orderID == "" {
		return "", nil
	}
	ob, err := do(ctx, d, func(a *noren.Auth) (*noren.Order, error) { return d.findOrder(ctx, a, orderID) })
	if err != nil {
		return "", err
	}
	if orders.Status(ob.Status) != "REJECTED" {
		return "", nil
	}
	return "rejected by the broker: " + firstNonEmpty(ob.RejReason, "no reason given"), nil
}
