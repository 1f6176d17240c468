package noren

import "context"

// MarginLeg is one order as GetOrderMargin and GetBasketMargin take it, in
// Noren codes (the fields of PlaceOrder that decide the margin).
// source: finserv-docs.pages.dev/orders_and_trades/order_margin and
// /basket_margin (Noren's documentation: uid, actid, exch, tsym url-encoded,
// qty, prc, trgprc only for SL orders, prd, trantype, prctyp, blprc for H/B).
type MarginLeg struct {
	Exch      string
	TSym      string
	Qty       int
	Price     float64
	Trigger   float64 // sent only for SL-LMT / SL-MKT
	Product   string  // C, I, M, H, B, F
	TranType  string  // B, S
	PriceType string  // LMT, MKT, SL-LMT, SL-MKT
	BookLoss  float64 // blprc: H and B only
	Decimals  int     // price precision (see OrderRequest.Decimals)
}

func (l MarginLeg) fields() map[string]any {
	j := map[string]any{
		"exch": l.Exch, "tsym": QuoteSymbol(l.TSym), "qty": itoa(l.Qty),
		"prc": priceStr(l.PriceType, l.Price, l.Decimals), "prd": l.Product, "trantype": l.TranType, "prctyp": l.PriceType,
	}
	if isStop(l.PriceType) {
		j["trgprc"] = FormatPrice(l.Trigger, l.Decimals)
	}
	if (l.Product == "H" || l.Product == "B") && l.BookLoss > 0 {
		j["blprc"] = FormatPrice(l.BookLoss, l.Decimals)
	}
	return j
}

// OrderMargin is GetOrderMargin's (and GetBasketMargin's) answer. cash,
// marginused and remarks are documented (finserv-docs.pages.dev
// orders_and_trades/order_margin: "Total credits available for order",
// "Total margin used"); ordermargin, marginusedprev (and the basket's
// marginusedtrade, "Margin after trade": marketcalls/openalgo
// broker/flattrade/mapping/margin_data.py) are in the answers public Noren
// clients read, with no published description (assumed: margin of this order,
// margin used before it). With remarks "Insufficient Balance" marginused is
// what is short, not a total (public Noren back-office clients map it so).
type OrderMargin struct {
	Status
	Remarks         Str `json:"remarks"`
	Cash            Num `json:"cash"`
	MarginUsed      Num `json:"marginused"`
	MarginUsedPrev  Num `json:"marginusedprev"`
	OrderMargin     Num `json:"ordermargin"`
	MarginUsedTrade Num `json:"marginusedtrade"`
}

// GetOrderMargin asks what one order would block (nothing is placed).
func (c *Client) GetOrderMargin(ctx context.Context, a *Auth, l MarginLeg) (OrderMargin, error) {
	j := l.fields()
	j["uid"], j["actid"] = a.UID, a.ActID
	var m OrderMargin
	err := c.object(ctx, "GetOrderMargin", a, j, true, &m)
	return m, err
}

// GetBasketMargin asks what legs would block together: the first leg's
// fields at the top, the rest in basketlists ("Out of basketlists, the
// parameter provided will be considered as the first order": docs.infinn.in
// orders_and_trades/basket_margin; marketcalls/openalgo
// broker/flattrade/mapping/margin_data.py sends it so).
func (c *Client) GetBasketMargin(ctx context.Context, a *Auth, legs []MarginLeg) (OrderMargin, error) {
	var m OrderMargin
	if len(legs) == 0 {
		return m, nil
	}
	j := legs[0].fields()
	j["uid"], j["actid"] = a.UID, a.ActID
	rest := make([]map[string]any, 0, len(legs)-1)
	for _, l := range legs[1:] {
		rest = append(rest, l.fields())
	}
	j["basketlists"] = rest
	err := c.object(ctx, "GetBasketMargin", a, j, true, &m)
	return m, err
}
