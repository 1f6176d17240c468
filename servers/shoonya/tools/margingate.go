package tools

import (
	"context"
	"errors"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// MarginCheck is what place_order learnt of the order's margin before
// sending it: checked with the broker's GetOrderMargin, or why not.
type MarginCheck struct {
	Checked   bool    `json:"checked"`
	Required  float64 `json:"required,omitempty"`
	Available float64 `json:"available,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// marginGate asks the broker what o would block. A shortfall refuses the
// order before it is sent (the broker's RMS would reject it); a margin route
// that fails does not pass as enough: the check says it was not made and why,
// and the order goes on to the broker's own check.
func (d *Deps) marginGate(ctx context.Context, a *noren.Auth, o noren.OrderRequest) (*MarginCheck, error) {
	m, err := d.client().GetOrderMargin(ctx, a, legOf(o))
	if err != nil {
		if noren.IsSessionExpired(err) {
			return nil, err // session.Do logs in again and repeats
		}
		return &MarginCheck{Note: "margin not checked: GetOrderMargin failed (" + envelope.From(err).Message + "); Shoonya checks it when the order arrives"}, nil
	}
	r := readMargin(o.TSym, m)
	if r.Shortfall > 0 {
		return nil, shortfallError(r)
	}
	return &MarginCheck{Checked: true, Required: r.Required, Available: r.Available}, nil
}

func shortfallError(r MarginOut) error {
	return envelope.New(envelope.PermissionDenied, "not enough margin for %s: it needs ₹%.2f, ₹%.2f is available, ₹%.2f short; add funds or reduce quantity (get_order_margin prices an order); nothing was sent",
		r.TradingSymbol, r.Required, r.Available, r.Shortfall).
		WithDetail("limit", "margin").WithDetail("shortfall", r.Shortfall).WithDetail("required", r.Required).WithDetail("available", r.Available)
}

// marginBeforeAsking refuses, before a person is asked to confirm, an order
// the broker says there is not margin for. Anything else (no session yet, the
// route failing) is left to the send path, which checks again and says so.
func (d *Deps) marginBeforeAsking(ctx context.Context, in PlaceIn) error {
	o, err := mapOrder(in)
	if err != nil {
		return nil // the send path reports it
	}
	_, err = do(ctx, d, func(a *noren.Auth) (*MarginCheck, error) { return d.marginGate(ctx, a, o) })
	var e *envelope.Error
	if errors.As(err, &e) && e.Details["limit"] == "margin" {
		return err
	}
	return nil
}
