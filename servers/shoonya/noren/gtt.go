package noren

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// GTT routes. Route names and the PlaceGTTOrder/CancelGTTOrder fields are
// those a public Go Noren client sends (package norenapigo, orders.go:
// PlaceGTT_LMT_order sends ordersource, uid, actid, tsym, exch, ai_t
// LTP_A_O|LTP_B_O, validity "GTT", d the trigger, remarks, trantype,
// prctyp, prd, ret, qty, prc, dscqty and reads Al_id; CancelGTTOrder sends
// uid and al_id; GetPendingGTTOrder sends uid), and shoonya.com's API
// documentation lists PlaceGTTOrder, CancelGTTOrder, GetPendingGTTOrder and
// GetEnabledGTTs under /NorenWClientAPI/. No public sample shows the
// pending list's fields: assumed to be the request's names (al_id, ai_t, d…).

// GTTRequest is a single-trigger GTT in Noren codes: when the last price
// goes above (LTP_A_O) or below (LTP_B_O) Trigger, a LIMIT order is placed.
type GTTRequest struct {
	Exch, TSym string
	Above      bool
	Trigger    float64
	TranType   string // B, S
	Product    string // C, I, M
	Qty        int
	Price      float64
	Decimals   int
	Remarks    string
}

// GTT is one pending GTT (GetPendingGTTOrder element).
type GTT struct {
	ID        string `json:"al_id"`
	AlertType string `json:"ai_t"`
	Exch      string `json:"exch"`
	TSym      string `json:"tsym"`
	Trigger   Num    `json:"d"`
	TranType  string `json:"trantype"`
	Product   string `json:"prd"`
	PriceType string `json:"prctyp"`
	Qty       Num    `json:"qty"`
	Price     Num    `json:"prc"`
	Remarks   Str    `json:"remarks"`
}

// PlaceGTTOrder sends PlaceGTTOrder once and returns the alert id.
func (c *Client) PlaceGTTOrder(ctx context.Context, a *Auth, g GTTRequest) (string, error) {
	ait := "LTP_B_O"
	if g.Above {
		ait = "LTP_A_O"
	}
	var res struct {
		ID string `json:"Al_id"`
	}
	err := c.object(ctx, "PlaceGTTOrder", a, map[string]any{"ordersource": "API", "uid": a.UID, "actid": a.ActID,
		"tsym": QuoteSymbol(g.TSym), "exch": g.Exch, "ai_t": ait, "validity": "GTT", "d": FormatPrice(g.Trigger, g.Decimals),
		"remarks": g.Remarks, "trantype": g.TranType, "prctyp": "LMT", "prd": g.Product, "ret": "DAY",
		"qty": itoa(g.Qty), "prc": FormatPrice(g.Price, g.Decimals), "dscqty": "0"}, false, &res)
	if err != nil {
		return "", err
	}
	if res.ID == "" {
		return "", envelope.New(envelope.OutcomeUnknown, "PlaceGTTOrder: Shoonya answered Ok without an alert id; check get_gtts before repeating").WithCause(ErrOutcomeUnknown)
	}
	return res.ID, nil
}

// CancelGTTOrder cancels a pending GTT once.
func (c *Client) CancelGTTOrder(ctx context.Context, a *Auth, id string) error {
	return c.object(ctx, "CancelGTTOrder", a, map[string]any{"uid": a.UID, "al_id": id}, false, nil)
}

// PendingGTTs lists the pending GTTs (a refusal is an error; "no data" is none).
func (c *Client) PendingGTTs(ctx context.Context, a *Auth) ([]GTT, error) {
	return list[GTT](ctx, c, "GetPendingGTTOrder", a, map[string]any{"uid": a.UID})
}
