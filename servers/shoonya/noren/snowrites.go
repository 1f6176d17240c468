package noren

import "context"

// ExitSNOOrder exits a cover (prd H) or bracket (prd B) order by its parent
// order number: Noren cancels its pending legs and squares the position off.
// Sent once (a write: never retried). jData as NorenApi.py exit_order sends
// it (Shoonya-Dev/ShoonyaApi-py dist/NorenRestApi-0.0.30: ordersource,
// uid, norenordno, prd); the answer carries dmsg on success (README
// exit_order "Response Details"). It returns dmsg.
func (c *Client) ExitSNOOrder(ctx context.Context, a *Auth, orderNo, prd string) (string, error) {
	var res struct {
		Dmsg string `json:"dmsg"`
	}
	err := c.object(ctx, "ExitSNOOrder", a, map[string]any{"ordersource": "API", "uid": a.UID, "norenordno": orderNo, "prd": prd}, false, &res)
	return res.Dmsg, err
}

// Conversion is ProductConversion's payload in Noren codes.
type Conversion struct {
	Exch, TSym string
	Qty        int
	Product    string // prd: the product to convert to
	PrevProd   string // prevprd: the position's product now
	TranType   string // trantype: B for a long position, S for a short one
	PosType    string // postype: DAY or CF
}

// ProductConversion converts (part of) a position from one product to
// another. Sent once. jData as NorenApi.py position_product_conversion sends
// it (ordersource, uid, actid, exch, tsym quote_plus'd, qty, prd, prevprd,
// trantype, postype); success is {"stat":"Ok"} and a refusal, e.g.
// "Invalid Input :  Invalid Position Type" (ShoonyaApi-py README prd_convert).
func (c *Client) ProductConversion(ctx context.Context, a *Auth, v Conversion) error {
	return c.object(ctx, "ProductConversion", a, map[string]any{"ordersource": "API", "uid": a.UID, "actid": a.ActID,
		"exch": v.Exch, "tsym": QuoteSymbol(v.TSym), "qty": itoa(v.Qty), "prd": v.Product, "prevprd": v.PrevProd,
		"trantype": v.TranType, "postype": v.PosType}, false, nil)
}
