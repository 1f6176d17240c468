package tools

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// MarginIn is one order as get_order_margin prices it (nothing is placed).
type MarginIn struct {
	Exchange      string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol" mcp:"minLength=1"`
	Side          string  `json:"side" mcp:"enum=BUY|SELL"`
	Quantity      int     `json:"quantity" mcp:"min=1"`
	OrderType     string  `json:"order_type,omitempty" mcp:"enum=LIMIT|MARKET|SL|SL-M"`
	Price         float64 `json:"price,omitempty" mcp:"min=0"`
	TriggerPrice  float64 `json:"trigger_price,omitempty" mcp:"min=0"`
	Product       string  `json:"product,omitempty" jsonschema:"default CNC" mcp:"enum=CNC|MIS|NRML|MTF"`
}

// MarginOut is what one order would block, in rupees; shortfall > 0: add
// funds or reduce quantity.
type MarginOut struct {
	TradingSymbol string  `json:"trading_symbol"`
	Required      float64 `json:"required"`
	Available     float64 `json:"available"`
	Shortfall     float64 `json:"shortfall"`
	Remarks       string  `json:"broker_remarks,omitempty"`
}

// leg maps in through place_order's own validation to Noren codes.
func (in MarginIn) leg() (noren.MarginLeg, error) {
	o, err := mapOrder(PlaceIn{Exchange: in.Exchange, TradingSymbol: in.TradingSymbol, Side: in.Side, Quantity: in.Quantity,
		OrderType: defaultStr(in.OrderType, "LIMIT"), Price: in.Price, TriggerPrice: in.TriggerPrice, Product: in.Product})
	if err != nil {
		return noren.MarginLeg{}, err
	}
	return legOf(o), nil
}

func legOf(o noren.OrderRequest) noren.MarginLeg {
	return noren.MarginLeg{Exch: o.Exch, TSym: o.TSym, Qty: o.Qty, Price: o.Price, Trigger: o.Trigger, Product: o.Product,
		TranType: o.TranType, PriceType: o.PriceType, BookLoss: o.BookLoss, Decimals: o.Decimals}
}

const insufficientBalance = "insufficient balance"

// readMargin turns GetOrderMargin's answer into rupees a trader reads.
// available is cash less the margin already used (marginusedprev); the order
// needs ordermargin. With remarks "Insufficient Balance" marginused is the
// amount short, not a total (see noren.OrderMargin), so it is read as such.
func readMargin(tsym string, m noren.OrderMargin) MarginOut {
	avail := float64(m.Cash - m.MarginUsedPrev)
	short := strings.EqualFold(strings.TrimSpace(string(m.Remarks)), insufficientBalance)
	req := float64(m.OrderMargin)
	switch {
	case req > 0:
	case short:
		req = avail + float64(m.MarginUsed)
	default:
		req = float64(m.MarginUsed - m.MarginUsedPrev)
	}
	out := MarginOut{TradingSymbol: tsym, Required: rupees(req), Available: rupees(avail), Remarks: envelope.CleanThirdParty(string(m.Remarks))}
	out.Shortfall = rupees(max(0, req-avail))
	if short && out.Shortfall == 0 {
		out.Shortfall = rupees(float64(m.MarginUsed)) // the broker says short: its figure
	}
	return out
}

func rupees(v float64) float64 { return math.Round(v*100) / 100 }

func orderMarginTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_order_margin", Title: "Order margin", Toolset: "margin",
		Description: "Rupees one order would block (nothing placed): required, available, shortfall (>0: add funds or cut quantity).",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in MarginIn) (MarginOut, error) {
		l, err := in.leg()
		if err != nil {
			return MarginOut{}, err
		}
		m, err := do(ctx, d, func(a *noren.Auth) (noren.OrderMargin, error) { return d.client().GetOrderMargin(ctx, a, l) })
		if err != nil {
			return MarginOut{}, err
		}
		return readMargin(l.TSym, m), nil
	})
}

// BasketMarginIn is the legs get_basket_margin prices together.
type BasketMarginIn struct {
	Legs []MarginLeg `json:"legs" jsonschema:"{exchange, trading_symbol, side BUY|SELL, quantity, price, trigger_price (SL), product CNC|MIS|NRML (default)}" mcp:"type=object;minItems=2;maxItems=20"`
}

// MarginLeg is one priced leg (the broker's basket margin takes no market
// legs); a trigger_price makes it an SL leg.
// Typed in the schema only as objects (tools/list budget): each is checked
// here as place_order checks its arguments.
type MarginLeg struct {
	Exchange      string  `json:"exchange"`
	TradingSymbol string  `json:"trading_symbol"`
	Side          string  `json:"side"`
	Quantity      int     `json:"quantity"`
	Price         float64 `json:"price"`
	TriggerPrice  float64 `json:"trigger_price,omitempty"`
	Product       string  `json:"product,omitempty"`
}

// LegMargin is one leg priced alone (legs[i] of the call).
type LegMargin struct {
	TradingSymbol string  `json:"trading_symbol"`
	Side          string  `json:"side"`
	Margin        float64 `json:"margin"`
	Error         string  `json:"error,omitempty"`
}

// BasketMarginOut is the legs' margin together and the hedge's benefit, rupees.
type BasketMarginOut struct {
	envelope.Coverage
	Legs         []LegMargin `json:"legs" jsonschema:"each alone: {trading_symbol, side, margin, error}" mcp:"type=object"`
	SumOfLegs    float64     `json:"sum_of_legs"`
	Basket       float64     `json:"basket_margin"`
	HedgeBenefit float64     `json:"hedge_benefit"`
	BenefitPct   float64     `json:"hedge_benefit_percent"`
	Available    float64     `json:"available"`
	Shortfall    float64     `json:"shortfall"`
}

func basketMarginTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_basket_margin", Title: "Basket margin", Toolset: "margin",
		Description: "Rupees 2-20 priced legs block together vs each alone: hedge_benefit (and %), available, shortfall. Nothing placed.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in BasketMarginIn) (BasketMarginOut, error) {
		legs := make([]noren.MarginLeg, len(in.Legs))
		for i, l := range in.Legs {
			l.Exchange = strings.ToUpper(strings.TrimSpace(l.Exchange))
			if !slices.Contains(strings.Split(orders.ExchangeEnum, "|"), l.Exchange) {
				return BasketMarginOut{}, envelope.Invalid(fmt.Sprintf("legs[%d].exchange", i), "leg %d: exchange must be one of %s", i+1, orders.ExchangeEnum)
			}
			if l.Price <= 0 {
				return BasketMarginOut{}, envelope.Invalid(fmt.Sprintf("legs[%d].price", i), "leg %d: price each leg (> 0): the broker's basket margin takes no market legs", i+1)
			}
			typ := "LIMIT"
			if l.TriggerPrice > 0 {
				typ = "SL"
			}
			ml, err := MarginIn{Exchange: l.Exchange, TradingSymbol: l.TradingSymbol, Side: l.Side, Quantity: l.Quantity, OrderType: typ,
				Price: l.Price, TriggerPrice: l.TriggerPrice, Product: defaultStr(l.Product, "NRML")}.leg()
			if err != nil {
				return BasketMarginOut{}, envelope.Invalid(fmt.Sprintf("legs[%d]", i), "leg %d: %s", i+1, envelope.From(err).Message)
			}
			legs[i] = ml
		}
		return do(ctx, d, func(a *noren.Auth) (BasketMarginOut, error) { return d.basketMargin(ctx, a, legs) })
	})
}

// basketConcurrency bounds the single-leg margin calls (the limiter paces them).
const basketConcurrency = 4

func (d *Deps) basketMargin(ctx context.Context, a *noren.Auth, legs []noren.MarginLeg) (BasketMarginOut, error) {
	bm, err := d.client().GetBasketMargin(ctx, a, legs)
	if err != nil {
		return BasketMarginOut{}, err
	}
	out := BasketMarginOut{Legs: make([]LegMargin, len(legs))}
	var wg sync.WaitGroup
	sem := make(chan struct{}, basketConcurrency)
	for i, l := range legs {
		out.Legs[i] = LegMargin{TradingSymbol: l.TSym, Side: map[string]string{"B": "BUY", "S": "SELL"}[l.TranType]}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m, err := d.client().GetOrderMargin(ctx, a, l)
			if err != nil {
				out.Legs[i].Error = envelope.From(err).Message
				return
			}
			out.Legs[i].Margin = readMargin(l.TSym, m).Required
		}()
	}
	wg.Wait()
	var failed []string
	for _, l := range out.Legs {
		if l.Error != "" {
			failed = append(failed, l.TradingSymbol)
		}
		out.SumOfLegs += l.Margin
	}
	// The basket's margin after its hedges; marginused is the legs' total
	// before them (marketcalls/openalgo broker/flattrade/mapping/margin_data.py).
	out.Basket = float64(bm.MarginUsedTrade)
	if out.Basket <= 0 {
		out.Basket = float64(bm.MarginUsed)
	}
	out.Basket, out.SumOfLegs = rupees(out.Basket), rupees(out.SumOfLegs)
	out.Available = rupees(float64(bm.Cash - bm.MarginUsedPrev))
	out.Shortfall = rupees(max(0, out.Basket-out.Available))
	if strings.EqualFold(strings.TrimSpace(string(bm.Remarks)), insufficientBalance) && out.Shortfall == 0 {
		out.Shortfall = rupees(out.Basket) // the broker says short; its figures do not say by how much
	}
	out.Coverage = envelope.Whole()
	if len(failed) > 0 {
		out.Coverage = envelope.Cut(envelope.Partial, "the margin alone of "+strings.Join(failed, ", ")+" (see legs[].error): sum_of_legs leaves them out and hedge_benefit is not computed",
			"call get_basket_margin again, or get_order_margin for that leg")
		return out, nil
	}
	out.HedgeBenefit = rupees(out.SumOfLegs - out.Basket)
	if out.SumOfLegs > 0 {
		out.BenefitPct = math.Round(out.HedgeBenefit/out.SumOfLegs*10000) / 100
	}
	return out, nil
}
