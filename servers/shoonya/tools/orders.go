package tools

import (
	"context"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// PlaceIn is place_order's input (human values; mapped to Noren codes).
type PlaceIn struct {
	Exchange       string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol  string  `json:"trading_symbol" jsonschema:"from search_scrip, e.g. RELIANCE-EQ" mcp:"minLength=1;maxLength=64"`
	Side           string  `json:"side" mcp:"enum=BUY|SELL"`
	Quantity       int     `json:"quantity" jsonschema:"shares; F&O: contracts × lot size" mcp:"min=1;max=1000000"`
	OrderType      string  `json:"order_type" jsonschema:"LIMIT: price; SL: price+trigger_price; SL-M: trigger_price" mcp:"enum=LIMIT|MARKET|SL|SL-M"`
	Price          float64 `json:"price,omitempty" jsonschema:"LIMIT, SL" mcp:"min=0"`
	TriggerPrice   float64 `json:"trigger_price,omitempty" jsonschema:"SL, SL-M" mcp:"min=0"`
	Product        string  `json:"product,omitempty" jsonschema:"CNC delivery, INTRADAY=MIS, NORMAL=NRML (F&O carry)" mcp:"enum=CNC|INTRADAY|MIS|NORMAL|NRML|COVER|BRACKET|MTF;default=CNC"`
	Validity       string  `json:"validity,omitempty" mcp:"enum=DAY|IOC|EOS;default=DAY"`
	DisclosedQty   int     `json:"disclosed_quantity,omitempty" mcp:"min=0"`
	AfterMarket    bool    `json:"after_market,omitempty" jsonschema:"AMO"`
	IdempotencyKey string  `json:"idempotency_key,omitempty" jsonschema:"same key never orders twice; default derived from order+day (new key to repeat an identical order)" mcp:"pattern=^[A-Za-z0-9_.:-]{4,40}$"`
}

// PlaceOut is place_order's result.
type PlaceOut struct {
	OrderID        string `json:"order_id"`
	IdempotencyKey string `json:"idempotency_key"`
	Outcome        string `json:"outcome" jsonschema:"placed, already_placed (nothing sent) or recovered (found in the book)"`
	Next           string `json:"next"`
}

// mapOrder validates a PlaceIn and maps it to Noren codes.
func mapOrder(in PlaceIn) (noren.OrderRequest, error) {
	o := noren.OrderRequest{Exch: strings.ToUpper(in.Exchange), TSym: strings.TrimSpace(in.TradingSymbol), Qty: in.Quantity,
		DiscQty: in.DisclosedQty, Price: in.Price, Trigger: in.TriggerPrice, AMO: in.AfterMarket}
	var err error
	if o.TranType, err = orders.Code("side", orders.Sides, in.Side); err != nil {
		return o, err
	}
	if o.PriceType, err = orders.Code("order_type", orders.OrderTypes, in.OrderType); err != nil {
		return o, err
	}
	if o.Product, err = orders.Code("product", orders.Products, defaultStr(in.Product, "CNC")); err != nil {
		return o, err
	}
	if o.Retention, err = orders.Code("validity", orders.Validities, defaultStr(in.Validity, "DAY")); err != nil {
		return o, err
	}
	if o.TSym == "" {
		return o, envelope.Invalid("trading_symbol", "trading_symbol is required; find it with search_scrip")
	}
	if o.Qty < 1 {
		return o, envelope.Invalid("quantity", "quantity must be at least 1")
	}
	if orders.NeedsPrice(o.PriceType) && o.Price <= 0 {
		return o, envelope.Invalid("price", "%s orders need price > 0", in.OrderType)
	}
	if !orders.NeedsPrice(o.PriceType) && o.Price > 0 {
		return o, envelope.Invalid("price", "%s orders take no price; remove it or use LIMIT/SL", in.OrderType)
	}
	if orders.IsStop(o.PriceType) && o.Trigger <= 0 {
		return o, envelope.Invalid("trigger_price", "%s orders need trigger_price > 0", in.OrderType)
	}
	if !orders.IsStop(o.PriceType) && o.Trigger > 0 {
		return o, envelope.Invalid("trigger_price", "trigger_price is only for SL and SL-M orders")
	}
	if o.DiscQty > o.Qty {
		return o, envelope.Invalid("disclosed_quantity", "disclosed_quantity cannot exceed quantity")
	}
	return o, nil
}

func defaultStr(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

// valuePrice is the price used for the max-order-value limit: the limit price,
// else the trigger, else the last traded price from GetQuotes.
func (d *Deps) valuePrice(ctx context.Context, a *noren.Auth, o noren.OrderRequest) (float64, error) {
	if o.Price > 0 {
		return o.Price, nil
	}
	if d.Limits.MaxOrderValue <= 0 {
		return 0, nil
	}
	if o.Trigger > 0 {
		return o.Trigger, nil
	}
	res, err := d.client().SearchScrip(ctx, a, o.Exch, o.TSym)
	if err == nil {
		for _, s := range res {
			if strings.EqualFold(s.TSym, o.TSym) {
				q, qerr := d.client().GetQuotes(ctx, a, o.Exch, s.Token)
				if qerr == nil && q.LP > 0 {
					return float64(q.LP), nil
				}
				err = qerr
				break
			}
		}
	}
	return 0, envelope.New(envelope.PermissionDenied, "refused by the pre-trade limit max_order_value (%s): no last price for %s to value a market order; use a LIMIT order", orders.EnvMaxValue, o.TSym).
		WithDetail("limit", "max_order_value").WithCause(err)
}

// preflight runs the pre-trade limits that need no broker state plus the
// market-order valuation; it runs again right before sending.
func (d *Deps) preflight(ctx context.Context, a *noren.Auth, in PlaceIn, o noren.OrderRequest) error {
	px, err := d.valuePrice(ctx, a, o)
	if err != nil {
		return err
	}
	return d.Limits.CheckStatic(o.Exch, defaultStr(in.Product, "CNC"), o.Qty, px)
}

func placeOrderTool(d *Deps) toolkit.Tool {
	t := toolkit.New(toolkit.Def{
		Name: "place_order", Title: "Place order", Toolset: "orders",
		Description: "Place a real order on Shoonya. Safe to retry with the same idempotency_key: a key that already has an order returns it, nothing is sent. " +
			"Pre-trade limits (quantity, value, exchanges/products, orders/minute) refuse with permission_denied. Asks the user to confirm (elicitation) where supported. " +
			"Never auto-retried; a lost answer is checked in the order book (outcome recovered), else outcome_unknown: call again with the same key. " +
			"Accepted ≠ executed: see get_order_book. Needs connect_shoonya_broker; symbols from search_scrip.",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in PlaceIn) (PlaceOut, error) {
		o, err := mapOrder(in)
		if err != nil {
			return PlaceOut{}, err
		}
		key := in.IdempotencyKey
		if key == "" {
			key = orders.DeriveKey(user(ctx), o, d.now())
		}
		o.Remarks = key
		res, err := do(ctx, d, func(a *noren.Auth) (orders.Placed, error) {
			return d.Placer.Place(ctx, user(ctx), key,
				func(ctx context.Context) ([]noren.Order, error) { return d.client().OrderBook(ctx, a) },
				func(ctx context.Context) (string, error) { return d.client().PlaceOrder(ctx, a, o) },
				func() error {
					if err := d.preflight(ctx, a, in, o); err != nil {
						return err
					}
					return d.Pacer.Take(user(ctx))
				})
		})
		if err != nil {
			return PlaceOut{}, err
		}
		out := PlaceOut{OrderID: res.OrderNo, IdempotencyKey: key, Outcome: "placed",
			Next: "check get_order_book for the status (accepted by the OMS is not yet executed)"}
		switch {
		case res.Deduplicated:
			out.Outcome = "already_placed"
			out.Next = "an order with this idempotency_key already exists, so nothing was sent; check get_order_book. For a second identical order pass a new idempotency_key"
		case res.Recovered:
			out.Outcome = "recovered"
			out.Next = "Shoonya's answer was lost but the order is in the order book; check get_order_book for the status"
		}
		return out, nil
	})
	return withConfirmation(d, t)
}

// ModifyIn is modify_order's input.
type ModifyIn struct {
	OrderID       string  `json:"order_id" jsonschema:"from place_order or get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
	Exchange      string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol" jsonschema:"the order's symbol" mcp:"minLength=1;maxLength=64"`
	Quantity      int     `json:"quantity" jsonschema:"new TOTAL (filled + pending)" mcp:"min=1;max=1000000"`
	OrderType     string  `json:"order_type" mcp:"enum=LIMIT|MARKET|SL|SL-M"`
	Price         float64 `json:"price,omitempty" mcp:"min=0"`
	TriggerPrice  float64 `json:"trigger_price,omitempty" jsonschema:"SL, SL-M" mcp:"min=0"`
}

// OrderAck is modify/cancel's result.
type OrderAck struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status" jsonschema:"modify_requested or cancel_requested"`
	Next    string `json:"next"`
}

func modifyOrderTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "modify_order", Title: "Modify order", Toolset: "orders",
		Description: "Change an open order's quantity, type, price or trigger. Pre-trade limits apply. Sent once, never auto-retried; on outcome_unknown check get_order_book before repeating. " +
			"Errors: not_found (no such open order). Needs connect_shoonya_broker.",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in ModifyIn) (OrderAck, error) {
		o, err := mapOrder(PlaceIn{Exchange: in.Exchange, TradingSymbol: in.TradingSymbol, Side: "BUY", Quantity: in.Quantity,
			OrderType: in.OrderType, Price: in.Price, TriggerPrice: in.TriggerPrice})
		if err != nil {
			return OrderAck{}, err
		}
		if err := d.Limits.CheckStatic(o.Exch, "", o.Qty, max(o.Price, o.Trigger)); err != nil {
			return OrderAck{}, err
		}
		if err := d.Pacer.Take(user(ctx)); err != nil {
			return OrderAck{}, err
		}
		no, err := do(ctx, d, func(a *noren.Auth) (string, error) {
			return d.client().ModifyOrder(ctx, a, noren.ModifyRequest{OrderNo: in.OrderID, Exch: o.Exch, TSym: o.TSym, Qty: o.Qty,
				PriceType: o.PriceType, Price: o.Price, Trigger: o.Trigger})
		})
		if err != nil {
			return OrderAck{}, err
		}
		return OrderAck{OrderID: firstNonEmpty(no, in.OrderID), Status: "modify_requested", Next: "check get_order_book for the result"}, nil
	})
}

// CancelIn is cancel_order's input.
type CancelIn struct {
	OrderID string `json:"order_id" jsonschema:"from place_order or get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
}

func cancelOrderTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "cancel_order", Title: "Cancel order", Toolset: "orders",
		Description: "Cancel an open order. Sent once, never auto-retried; on outcome_unknown check get_order_book. Errors: not_found (no such open order, or already complete/cancelled). Needs connect_shoonya_broker.",
		Hints:       toolkit.RemoteDestructive,
	}, func(ctx context.Context, in CancelIn) (OrderAck, error) {
		no, err := do(ctx, d, func(a *noren.Auth) (string, error) { return d.client().CancelOrder(ctx, a, in.OrderID) })
		if err != nil {
			return OrderAck{}, err
		}
		return OrderAck{OrderID: firstNonEmpty(no, in.OrderID), Status: "cancel_requested", Next: "check get_order_book: status becomes CANCELED"}, nil
	})
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
