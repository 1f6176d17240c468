package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// PlaceIn is place_order's input (human values; mapped to Noren codes).
type PlaceIn struct {
	Exchange       string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol  string  `json:"trading_symbol" jsonschema:"from search_scrip" mcp:"minLength=1;maxLength=64"`
	Side           string  `json:"side" mcp:"enum=BUY|SELL"`
	Quantity       int     `json:"quantity" jsonschema:"shares; F&O: contracts × lot size" mcp:"min=1;max=1000000"`
	OrderType      string  `json:"order_type" jsonschema:"LIMIT: price; SL: price+trigger_price; SL-M: trigger_price" mcp:"enum=LIMIT|MARKET|SL|SL-M"`
	Price          float64 `json:"price,omitempty" mcp:"min=0;max=10000000"`
	TriggerPrice   float64 `json:"trigger_price,omitempty" mcp:"min=0;max=10000000"`
	Product        string  `json:"product,omitempty" jsonschema:"CNC delivery, INTRADAY=MIS, NORMAL=NRML F&O carry; COVER, BRACKET: +stop_loss (+target)" mcp:"enum=CNC|INTRADAY|MIS|NORMAL|NRML|COVER|BRACKET|MTF;default=CNC"`
	StopLoss       float64 `json:"stop_loss,omitempty" jsonschema:"COVER/BRACKET stop price (BUY: below entry)" mcp:"min=0"`
	Target         float64 `json:"target,omitempty" jsonschema:"BRACKET target price (BUY: above entry)" mcp:"min=0"`
	TrailingStop   float64 `json:"trailing_stop,omitempty" jsonschema:"COVER/BRACKET trail step, rupees" mcp:"min=0"`
	Validity       string  `json:"validity,omitempty" mcp:"enum=DAY|IOC|EOS;default=DAY"`
	DisclosedQty   int     `json:"disclosed_quantity,omitempty" mcp:"min=0"`
	AfterMarket    bool    `json:"after_market,omitempty" jsonschema:"AMO"`
	IdempotencyKey string  `json:"idempotency_key,omitempty" jsonschema:"default from order+day; a new key repeats an identical order" mcp:"pattern=^[A-Za-z0-9_.:-]{4,40}$"`
}

// PlaceOut is place_order's result.
type PlaceOut struct {
	OrderID        string  `json:"order_id"`
	IdempotencyKey string  `json:"idempotency_key"`
	Outcome        string  `json:"outcome"`
	OrderType      string  `json:"order_type_sent,omitempty"`
	Price          float64 `json:"price_sent,omitempty"`
	Converted      string  `json:"converted,omitempty"`
	Next           string  `json:"next"`
	// Mode is live or paper (SHOONYA_TRADING): a paper order was never sent.
	Mode string `json:"mode"`
	// ConfirmURL is the one-time page where a person confirms the order
	// (outcome confirmation_required); nothing was sent.
	ConfirmURL     string `json:"confirm_url,omitempty"`
	ConfirmExpires string `json:"confirm_expires,omitempty"`
	// Margin is the broker's margin check before sending (margingate.go).
	Margin *MarginCheck `json:"margin,omitempty" jsonschema:"{checked, required, available, note: why not checked}" mcp:"type=object"`
}

// mapOrder validates a PlaceIn and maps it to Noren codes.
func mapOrder(in PlaceIn) (noren.OrderRequest, error) {
	// BookLoss/BookProfit/Trail hold the caller's prices until prepare turns
	// them into distances; the derived idempotency key sees the caller's values.
	o := noren.OrderRequest{Exch: strings.ToUpper(in.Exchange), TSym: strings.TrimSpace(in.TradingSymbol), Qty: in.Quantity,
		DiscQty: in.DisclosedQty, Price: in.Price, Trigger: in.TriggerPrice, AMO: in.AfterMarket,
		BookLoss: in.StopLoss, BookProfit: in.Target, Trail: in.TrailingStop}
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
	for _, f := range []struct {
		name string
		v    float64
	}{{"price", in.Price}, {"trigger_price", in.TriggerPrice}, {"stop_loss", in.StopLoss}, {"target", in.Target}, {"trailing_stop", in.TrailingStop}} {
		if f.v != 0 {
			if err := orders.StaticPrice(f.name, f.v); err != nil {
				return o, err
			}
		}
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
	return o, coverBracketArgs(in, o.Product)
}

// coverBracketArgs checks which leg arguments the product takes: COVER (H)
// needs stop_loss, BRACKET (B) stop_loss and target (the SDK sends blprc for
// H, blprc+bpprc for B: NorenApi.py place_order); no other product takes them.
func coverBracketArgs(in PlaceIn, prd string) error {
	switch prd {
	case "H":
		if in.StopLoss <= 0 {
			return envelope.Invalid("stop_loss", "COVER orders need stop_loss (the stop-loss price)")
		}
		if in.Target > 0 {
			return envelope.Invalid("target", "COVER orders take no target; use product BRACKET for a target")
		}
	case "B":
		if in.StopLoss <= 0 || in.Target <= 0 {
			return envelope.Invalid("stop_loss", "BRACKET orders need stop_loss and target prices")
		}
	default:
		if in.StopLoss > 0 || in.Target > 0 || in.TrailingStop > 0 {
			return envelope.Invalid("stop_loss", "stop_loss, target and trailing_stop are only for product COVER or BRACKET")
		}
	}
	return nil
}

func defaultStr(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

// instrument looks up what the price checks need: SearchScrip for the
// token (exact trading symbol), then GetQuotes (tick, precision, circuits,
// last price). Nothing is sent when it fails.
func (d *Deps) instrument(ctx context.Context, a *noren.Auth, exch, tsym string) (orders.Instrument, error) {
	res, err := d.client().SearchScrip(ctx, a, exch, tsym)
	if err != nil {
		return orders.Instrument{}, lookupErr(tsym, err)
	}
	for _, s := range res {
		if !strings.EqualFold(s.TSym, tsym) {
			continue
		}
		q, err := d.client().GetQuotes(ctx, a, exch, s.Token)
		if err != nil {
			return orders.Instrument{}, lookupErr(tsym, err)
		}
		in := orders.Instrument{TSym: tsym, Tick: float64(q.TickSize), Decimals: int(q.PP), Upper: float64(q.Upper),
			Lower: float64(q.Lower), LTP: float64(q.LP), Option: strings.HasPrefix(strings.ToUpper(q.InstName), "OPT"),
			LotSize: int(s.LotSize), Exch: exch, Token: s.Token}
		if in.LotSize <= 0 {
			in.LotSize = int(q.LotSize)
		}
		if in.Tick <= 0 {
			in.Tick = float64(s.TickSize)
		}
		if in.Decimals <= 0 {
			in.Decimals = orders.TickDecimals(in.Tick)
		}
		return in, nil
	}
	return orders.Instrument{}, envelope.Invalid("trading_symbol", "%s is not a trading symbol on %s; find the exact one with search_scrip", tsym, exch)
}

func lookupErr(tsym string, err error) error {
	e := envelope.From(err)
	if e.Code == envelope.Unauthenticated {
		return err // session.Do logs in again (legacy) or names connect_shoonya_broker
	}
	return envelope.New(e.Code, "could not look up %s's tick size, circuit limits and last price, so nothing was sent; try again (%s)", tsym, e.Message).
		WithRetryable(true).WithRetryAfter(e.RetryAfter).WithCause(err)
}

// prepare validates o's prices against in and converts MARKET/SL-M to a
// protective LIMIT/SL: public live-trading clients do so because Shoonya
// rejects API MKT and SL-MKT orders (marketcalls/openalgo
// broker/shoonya/mapping/transform_data.py). It returns how it converted ("" if not).
func prepare(o *noren.OrderRequest, in PlaceIn, inst orders.Instrument) (string, error) {
	o.Decimals = inst.Decimals
	if err := orders.CheckLot("quantity", o.Qty, inst); err != nil {
		return "", err
	}
	if o.Trigger > 0 {
		if err := orders.CheckPrice("trigger_price", o.Trigger, inst); err != nil {
			return "", err
		}
	}
	converted := ""
	entry := o.Price // where the legs of a COVER/BRACKET are measured from
	switch o.PriceType {
	case "LMT", "SL-LMT":
		if err := orders.CheckPrice("price", o.Price, inst); err != nil {
			return "", err
		}
	case "MKT":
		if inst.LTP <= 0 {
			return "", envelope.Invalid("order_type", "Shoonya rejects MARKET orders from the API, and %s has no last price to set a protective limit from; place a LIMIT order", o.TSym)
		}
		px, how := orders.Protective(o.TranType, inst.LTP, inst)
		o.PriceType, o.Price, entry = "LMT", px, inst.LTP // expected fill: the last price, not the protective cap
		converted = "MARKET sent as LIMIT: last price " + how
	case "SL-MKT":
		px, how := orders.Protective(o.TranType, o.Trigger, inst)
		o.PriceType, o.Price, entry = "SL-LMT", px, o.Trigger
		converted = "SL-M sent as SL: trigger " + how
	}
	if o.Product != "H" && o.Product != "B" {
		return converted, nil
	}
	// COVER/BRACKET legs: absolute prices from the caller, checked against the
	// entry, sent as distances (ShoonyaApi-py README: "stop-loss diff / profit diff").
	buy := o.TranType == "B"
	if err := orders.CheckPrice("stop_loss", in.StopLoss, inst); err != nil {
		return "", err
	}
	if (buy && in.StopLoss >= entry) || (!buy && in.StopLoss <= entry) {
		return "", envelope.Invalid("stop_loss", "stop_loss %v must be %s the entry price %v for a %s", in.StopLoss, map[bool]string{true: "below", false: "above"}[buy], entry, in.Side)
	}
	o.BookLoss = roundTo(math.Abs(entry-in.StopLoss), inst.Tick)
	if o.Product == "B" {
		if err := orders.CheckPrice("target", in.Target, inst); err != nil {
			return "", err
		}
		if (buy && in.Target <= entry) || (!buy && in.Target >= entry) {
			return "", envelope.Invalid("target", "target %v must be %s the entry price %v for a %s", in.Target, map[bool]string{true: "above", false: "below"}[buy], entry, in.Side)
		}
		o.BookProfit = roundTo(math.Abs(in.Target-entry), inst.Tick)
	}
	if in.TrailingStop > 0 {
		if err := orders.CheckPrice("trailing_stop", in.TrailingStop, orders.Instrument{TSym: inst.TSym, Tick: inst.Tick, Decimals: inst.Decimals}); err != nil {
			return "", err
		}
		o.Trail = in.TrailingStop
	}
	return converted, nil
}

func roundTo(v, tick float64) float64 {
	if tick <= 0 {
		return v
	}
	return math.Round(v/tick) * tick
}

// preflight runs right before sending: instrument lookup, price checks and
// conversion, the pre-trade limits (valued at the price sent, or the trigger
// or last price), and the orders-per-minute pacer.
func (d *Deps) preflight(ctx context.Context, a *noren.Auth, in PlaceIn, o *noren.OrderRequest) (string, error) {
	inst, err := d.instrument(ctx, a, o.Exch, o.TSym)
	if err != nil {
		return "", err
	}
	converted, err := prepare(o, in, inst)
	if err != nil {
		return "", err
	}
	px := o.Price
	if px <= 0 {
		px = max(o.Trigger, inst.LTP)
	}
	if err := d.Limits.CheckStatic(o.Exch, defaultStr(in.Product, "CNC"), o.Qty, px); err != nil {
		return "", err
	}
	return converted, d.Pacer.Take(ctx, user(ctx))
}

func placeOrderTool(d *Deps) toolkit.Tool {
	t := toolkit.New(toolkit.Def{
		Name: "place_order", Title: "Place order", Toolset: "orders",
		Description: "Place an order (mode: live or paper). Same idempotency_key never orders twice (already_placed). " +
			"Ticks/circuits checked. " +
			"API market orders are rejected, so " + orders.ProtectiveRule + "; see converted. " +
			"Limits/guards refuse: permission_denied. The user confirms each order; confirmation_required: give them confirm_url. " +
			"Lost answer: looked up in the book (recovered), else outcome_unknown: call again with the same key. " +
			"Accepted ≠ executed: get_order_book.",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in PlaceIn) (PlaceOut, error) { return d.place(ctx, in, false) })
	return withConfirmation(d, t, d.placeWrite())
}

// place places in once per idempotency key, after the account guards; a
// person's yes to a second identical order is allowDuplicate. In paper
// mode the order fills in the paper book and nothing is sent.
func (d *Deps) place(ctx context.Context, in PlaceIn, allowDuplicate bool) (PlaceOut, error) {
	o, err := mapOrder(in)
	if err != nil {
		return PlaceOut{}, err
	}
	key := d.keyOf(ctx, in, o)
	o.Remarks = key
	if d.paper(ctx) {
		return d.placePaper(ctx, in, o, key, allowDuplicate)
	}
	orig := o
	var converted string
	var reserved *guard.Order
	var margin *MarginCheck
	res, err := do(ctx, d, func(a *noren.Auth) (orders.Placed, error) {
		return d.Placer.Place(ctx, user(ctx), key,
			func(ctx context.Context) ([]noren.Order, error) { return d.client().OrderBook(ctx, a) },
			func(ctx context.Context) (string, error) {
				no, err := d.client().PlaceOrder(ctx, a, o)
				if err != nil && reserved != nil {
					d.sendFailed(ctx, *reserved, err)
				}
				return no, err
			},
			func() error {
				o = orig // a repeat after a re-login starts from the caller's values
				var err error
				if converted, err = d.preflight(ctx, a, in, &o); err != nil || reserved != nil {
					return err
				}
				if margin, err = d.marginGate(ctx, a, o); err != nil {
					return err
				}
				g := guardOrder(o, key)
				if err := d.guard().Reserve(ctx, user(ctx), g, allowDuplicate); err != nil {
					return err
				}
				reserved = &g
				return nil
			})
	})
	if err != nil {
		return PlaceOut{}, err
	}
	d.guard().Accepted(ctx, user(ctx), key, res.OrderNo)
	out := PlaceOut{OrderID: res.OrderNo, IdempotencyKey: key, Outcome: "placed", Mode: string(guard.Live),
		Next: "check get_order_book for the status (accepted by the OMS is not yet executed)"}
	if !res.Deduplicated {
		out.OrderType, out.Price, out.Converted = orders.OrderTypeName(o.PriceType), orders.Wire(o.Price, o.Decimals), converted
		out.Margin = margin
	}
	switch {
	case res.Deduplicated:
		out.Outcome = "already_placed"
		out.Next = alreadyPlacedNext
	case res.Recovered:
		out.Outcome = "recovered"
		out.Next = "Shoonya's answer was lost but the order is in the order book; check get_order_book for the status"
	}
	return out, nil
}

const alreadyPlacedNext = "an order with this idempotency_key already exists, so nothing was sent; check get_order_book. For a second identical order pass a new idempotency_key"

// keyOf is the call's idempotency key: the caller's, or one derived from the
// caller's values before any conversion, so a re-sent call derives the same
// key however the market moved.
func (d *Deps) keyOf(ctx context.Context, in PlaceIn, o noren.OrderRequest) string {
	if in.IdempotencyKey != "" {
		return in.IdempotencyKey
	}
	return orders.DeriveKey(user(ctx), o, d.now())
}

// ModifyIn is modify_order's input. Only order_id is required: what is left
// out is taken from the open order in the broker's order book.
type ModifyIn struct {
	OrderID       string  `json:"order_id" jsonschema:"from place_order or get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
	Exchange      string  `json:"exchange,omitempty" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol,omitempty" mcp:"maxLength=64"`
	Quantity      int     `json:"quantity,omitempty" jsonschema:"new TOTAL (filled + pending)" mcp:"min=1;max=1000000"`
	OrderType     string  `json:"order_type,omitempty" mcp:"enum=LIMIT|SL"`
	Price         float64 `json:"price,omitempty" mcp:"min=0;max=10000000"`
	TriggerPrice  float64 `json:"trigger_price,omitempty" mcp:"min=0;max=10000000"`
}

// OrderAck is modify/cancel's result.
type OrderAck struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
	Next    string `json:"next"`
}

// ModifyAck is modify_order's result: the values sent, as the broker got them.
type ModifyAck struct {
	OrderAck
	Sent string `json:"sent"`
}

// openStatuses are the order-book statuses an order can still be modified in.
var openStatuses = map[string]bool{"OPEN": true, "PENDING": true, "TRIGGER_PENDING": true}

// completeModify fills what the caller left out from the open order ob, so
// {"order_id", "price": 705} changes only the price.
func completeModify(in ModifyIn, ob noren.Order) (ModifyIn, error) {
	if st := orders.Status(ob.Status); !openStatuses[st] {
		return in, envelope.New(envelope.Conflict, "order %s is %s; only open orders can be modified (get_order_book shows it; place_order places a new one)", in.OrderID, st).
			WithDetail("status", st)
	}
	if in.Exchange != "" && !strings.EqualFold(in.Exchange, ob.Exch) || in.TradingSymbol != "" && !strings.EqualFold(strings.TrimSpace(in.TradingSymbol), ob.TSym) {
		return in, envelope.Invalid("trading_symbol", "order %s is for %s %s, not %s %s; leave exchange and trading_symbol out", in.OrderID, ob.Exch, ob.TSym, in.Exchange, in.TradingSymbol)
	}
	in.Exchange, in.TradingSymbol = ob.Exch, ob.TSym
	if in.Quantity == 0 {
		in.Quantity = int(ob.Qty)
	} else if filled := int(ob.FillShares); filled > 0 && in.Quantity <= filled {
		// Noren's qty is the new total, filled shares included: a total at or
		// below what is filled leaves nothing to modify and the broker refuses it
		return in, envelope.Invalid("quantity", "quantity is the order's new TOTAL (filled + pending); %d of order %s's %d are already filled, so pass more than %d (e.g. %d to keep %d pending)",
			filled, in.OrderID, int(ob.Qty), filled, int(ob.Qty), int(ob.Qty)-filled).
			WithDetail("filled", filled).WithDetail("order_quantity", int(ob.Qty))
	}
	if in.OrderType == "" {
		switch ob.PriceType {
		case "LMT", "MKT":
			in.OrderType = "LIMIT" // a market order gets a price only as a LIMIT
		case "SL-LMT", "SL-MKT":
			in.OrderType = "SL"
		default:
			return in, envelope.Invalid("order_type", "order %s has price type %q; pass order_type LIMIT or SL", in.OrderID, ob.PriceType)
		}
	}
	if in.Price == 0 && (ob.PriceType == "LMT" || ob.PriceType == "SL-LMT") {
		in.Price = float64(ob.Price)
	}
	if in.TriggerPrice == 0 && in.OrderType == "SL" && orders.IsStop(ob.PriceType) {
		in.TriggerPrice = float64(ob.Trigger)
	}
	if in.Price == 0 {
		return in, envelope.Invalid("price", "order %s is a %s order with no limit price; pass price for the %s order", in.OrderID, orders.OrderTypeName(ob.PriceType), in.OrderType)
	}
	return in, nil
}

func modifyOrderTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "modify_order", Title: "Modify order", Toolset: "orders",
		Description: "Change an open order: pass only what changes (the rest comes from the order book). Ticks, circuits, lot size, limits checked. Sent once; on outcome_unknown check get_order_book before repeating. " +
			"Errors: not_found, conflict (not open).",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in ModifyIn) (ModifyAck, error) {
		if in.Quantity == 0 && in.OrderType == "" && in.Price == 0 && in.TriggerPrice == 0 {
			return ModifyAck{}, envelope.Invalid("price", "nothing to change: pass quantity, order_type, price or trigger_price")
		}
		if err := d.guard().CheckTrading(ctx, user(ctx)); err != nil {
			return ModifyAck{}, err // halted or frozen: no order changes either (cancels still go)
		}
		var sent noren.ModifyRequest
		no, err := do(ctx, d, func(a *noren.Auth) (string, error) {
			book, err := d.client().OrderBook(ctx, a)
			if err != nil {
				return "", err
			}
			var ob *noren.Order
			for i := range book {
				if book[i].OrderNo == in.OrderID {
					ob = &book[i]
				}
			}
			if ob == nil {
				return "", envelope.New(envelope.NotFound, "no order %s in today's order book; get_order_book lists the orders", in.OrderID)
			}
			full, err := completeModify(in, *ob)
			if err != nil {
				return "", err
			}
			o, err := mapOrder(PlaceIn{Exchange: full.Exchange, TradingSymbol: full.TradingSymbol, Side: "BUY", Quantity: full.Quantity,
				OrderType: full.OrderType, Price: full.Price, TriggerPrice: full.TriggerPrice})
			if err != nil {
				return "", err
			}
			if err := d.Limits.CheckStatic(o.Exch, "", o.Qty, max(o.Price, o.Trigger)); err != nil {
				return "", err
			}
			inst, err := d.instrument(ctx, a, o.Exch, o.TSym)
			if err != nil {
				return "", err
			}
			m := o
			if _, err := prepare(&m, PlaceIn{Side: "BUY"}, inst); err != nil {
				return "", err
			}
			if err := d.Pacer.Take(ctx, user(ctx)); err != nil {
				return "", err
			}
			sent = noren.ModifyRequest{OrderNo: in.OrderID, Exch: m.Exch, TSym: m.TSym, Qty: m.Qty,
				PriceType: m.PriceType, Price: m.Price, Trigger: m.Trigger, Decimals: m.Decimals}
			// The guards see what the change adds to the day's notional.
			grow := orderValue(m.Qty, m.Price, m.Trigger) - orderValue(int(ob.Qty), float64(ob.Price), float64(ob.Trigger))
			if err := d.guard().AddValue(ctx, user(ctx), grow); err != nil {
				return "", err
			}
			no, err := d.client().ModifyOrder(ctx, a, sent)
			if err != nil && !noren.IsOutcomeUnknown(err) {
				_ = d.guard().AddValue(ctx, user(ctx), -grow) // not changed: give the value back
			}
			return no, err
		})
		if err != nil {
			return ModifyAck{}, err
		}
		out := ModifyAck{OrderAck: OrderAck{OrderID: firstNonEmpty(no, in.OrderID), Status: "modify_requested", Next: "check get_order_book for the result"}}
		out.Sent = fmt.Sprintf("%s %s %d @ %s", orders.OrderTypeName(sent.PriceType), sent.TSym, sent.Qty, noren.FormatPrice(sent.Price, sent.Decimals))
		if orders.IsStop(sent.PriceType) {
			out.Sent += " trigger " + noren.FormatPrice(sent.Trigger, sent.Decimals)
		}
		return out, nil
	})
}

// orderValue is an order's notional as the guards count it: at its price, else its trigger.
func orderValue(qty int, price, trigger float64) float64 {
	if price <= 0 {
		price = trigger
	}
	return float64(qty) * price
}

// CancelIn is cancel_order's input.
type CancelIn struct {
	OrderID string `json:"order_id" jsonschema:"from place_order or get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
}

func cancelOrderTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "cancel_order", Title: "Cancel order", Toolset: "orders",
		Description: "Cancel an open order. Sent once, never auto-retried; on outcome_unknown check get_order_book. Errors: conflict (already finished: details.status), not_found.",
		Hints:       toolkit.RemoteDestructive,
	}, func(ctx context.Context, in CancelIn) (OrderAck, error) {
		no, err := do(ctx, d, func(a *noren.Auth) (string, error) { return d.client().CancelOrder(ctx, a, in.OrderID) })
		if err != nil {
			return OrderAck{}, finishedOrder(ctx, d, in.OrderID, err)
		}
		return OrderAck{OrderID: firstNonEmpty(no, in.OrderID), Status: "cancel_requested", Next: "check get_order_book: status becomes CANCELED"}, nil
	})
}

// finishedOrder turns Noren's "Order not found to Cancel" for an order that
// exists but is no longer open into the conflict modify_order answers, with
// its status: the broker says the same words for both. The order book read
// is safe to repeat; when it fails, the broker's answer stands.
func finishedOrder(ctx context.Context, d *Deps, id string, err error) error {
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.NotFound {
		return err
	}
	var st string
	_, rerr := do(ctx, d, func(a *noren.Auth) (string, error) {
		book, err := d.client().OrderBook(ctx, a)
		for _, o := range book {
			if o.OrderNo == id {
				st = orders.Status(o.Status)
			}
		}
		return "", err
	})
	if rerr != nil || st == "" || openStatuses[st] {
		return err
	}
	return envelope.New(envelope.Conflict, "order %s is %s; nothing to cancel (get_order_book shows it)", id, st).WithDetail("status", st).WithCause(err)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
