package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/paper"
)

// Paper mode (SHOONYA_TRADING=paper): the order tools and the books work
// on the paper book; quotes, search, chains and candles are live. Nothing
// is sent to PlaceOrder, ModifyOrder or CancelOrder.

const paperNote = "PAPER TRADING (SHOONYA_TRADING=paper): nothing was sent to the broker. "

// placePaper is place_order in paper mode: the live quote prices the order
// and fills it when it crosses; the pre-trade limits and guards apply.
func (d *Deps) placePaper(ctx context.Context, in PlaceIn, o noren.OrderRequest, key string, allowDuplicate bool) (PlaceOut, error) {
	type filled struct {
		order     paper.Order
		placed    bool
		converted string
	}
	r, err := do(ctx, d, func(a *noren.Auth) (filled, error) {
		oo := o
		inst, err := d.instrument(ctx, a, oo.Exch, oo.TSym)
		if err != nil {
			return filled{}, err
		}
		converted, err := prepare(&oo, in, inst)
		if err != nil {
			return filled{}, err
		}
		if err := d.Limits.CheckStatic(oo.Exch, defaultStr(in.Product, "CNC"), oo.Qty, max(oo.Price, oo.Trigger, inst.LTP)); err != nil {
			return filled{}, err
		}
		l, err := d.paperBook().Read(ctx, user(ctx))
		if err != nil {
			return filled{}, err
		}
		if prev := l.ByKey(key); prev != nil {
			return filled{order: *prev}, nil
		}
		if err := d.guard().Reserve(ctx, user(ctx), guardOrder(oo, key), allowDuplicate); err != nil {
			return filled{}, err
		}
		po, placed, err := d.paperBook().Place(ctx, user(ctx), paper.Order{Key: key, Exch: oo.Exch, TSym: oo.TSym, Token: inst.Token,
			Side: oo.TranType, Product: oo.Product, PriceType: oo.PriceType, Qty: oo.Qty, Price: orders.Wire(oo.Price, oo.Decimals),
			Trigger: oo.Trigger, Validity: oo.Retention}, inst.LTP)
		if err != nil {
			d.guard().Released(ctx, user(ctx), key, guardOrder(oo, key).Value)
			return filled{}, err
		}
		return filled{order: po, placed: placed, converted: converted}, nil
	})
	if err != nil {
		return PlaceOut{}, err
	}
	d.guard().Accepted(ctx, user(ctx), key, r.order.ID)
	out := PlaceOut{OrderID: r.order.ID, IdempotencyKey: key, Outcome: "placed", Mode: string(guard.Paper),
		OrderType: orders.OrderTypeName(r.order.PriceType), Price: r.order.Price, Converted: r.converted}
	switch {
	case !r.placed:
		out.Outcome = "already_placed"
		out.Next = paperNote + "a paper order with this idempotency_key already exists; get_order_book shows it"
	case r.order.Status == paper.Complete:
		out.Next = fmt.Sprintf("%sfilled in the paper book at %g (the live quote); get_positions shows it", paperNote, r.order.AvgPrice)
	default:
		out.Next = paperNote + "the paper order is open until the live quote crosses its price; get_order_book shows it"
	}
	return out, nil
}

// paperBook is Deps.Paper, or one in this process's memory for Deps built by hand.
func (d *Deps) paperBook() *paper.Book {
	if d.Paper == nil {
		d.Paper = &paper.Book{State: d.guard().State, Now: d.now}
	}
	return d.Paper
}

// paperLedger reads the caller's paper day after filling the open orders
// whose live quote crossed; quotes holds the last price of every
// instrument in the book (positions are valued at it).
func (d *Deps) paperLedger(ctx context.Context) (paper.Ledger, map[string]float64, error) {
	l, err := d.paperBook().Read(ctx, user(ctx))
	if err != nil {
		return l, nil, err
	}
	type inst struct{ exch, token string }
	need := map[string]inst{}
	for _, o := range l.Orders {
		if o.Token != "" {
			need[o.Exch+"|"+o.TSym] = inst{o.Exch, o.Token}
		}
	}
	quotes := map[string]float64{}
	for k, in := range need {
		q, err := do(ctx, d, func(a *noren.Auth) (noren.Quote, error) { return d.client().GetQuotes(ctx, a, in.exch, in.token) })
		if err != nil {
			if envelope.From(err).Code == envelope.Unauthenticated {
				return l, nil, err
			}
			continue // no quote: the order stays open, the position unpriced
		}
		if q.LP > 0 {
			quotes[k] = float64(q.LP)
		}
	}
	l, err = d.paperBook().Sweep(ctx, user(ctx), quotes)
	return l, quotes, err
}

// paperTool serves t from the paper book in paper mode (run), else as it is.
func paperTool[In any](d *Deps, t toolkit.Tool, run func(ctx context.Context, in In) (any, error)) toolkit.Tool {
	live := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if !d.paper(ctx) {
			return live(ctx, req)
		}
		if e := t.CheckArguments(req); e != nil {
			return markPaper(envelope.Fail(e)), nil
		}
		var in In
		if err := toolkit.Bind(req, &in); err != nil {
			return markPaper(envelope.Fail(envelope.Invalid("", "arguments do not match the input schema: %v", err))), nil
		}
		out, err := run(ctx, in)
		if err != nil {
			return markPaper(envelope.Fail(err)), nil
		}
		return markPaper(envelope.OK(out)), nil
	}
	return t
}

// markedPaper marks every result of t as paper in paper mode.
func markedPaper(d *Deps, t toolkit.Tool) toolkit.Tool {
	h := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err != nil || res == nil || !d.paper(ctx) {
			return res, err
		}
		return markPaper(res), nil
	}
	return t
}

// markPaper adds "mode":"paper" to a result's structured content and says
// so first in its text.
func markPaper(res *mcp.CallToolResult) *mcp.CallToolResult {
	if res.IsError {
		if b, ok := res.StructuredContent.(envelope.Body); ok {
			if b.Details == nil {
				b.Details = map[string]any{}
			}
			b.Details["mode"] = "paper"
			res.StructuredContent = b
		}
	} else if raw := res.RawStructuredContent; len(raw) > 1 && raw[0] == '{' {
		var probe map[string]json.RawMessage
		if json.Unmarshal(raw, &probe) == nil {
			if _, has := probe["mode"]; !has {
				sep := ","
				if bytes.Equal(bytes.TrimSpace(raw[1:]), []byte("}")) {
					sep = ""
				}
				res.RawStructuredContent = append([]byte(`{"mode":"paper"`+sep), raw[1:]...)
			}
		}
	}
	for i, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			tc.Text = paperNote + tc.Text
			res.Content[i] = tc
			break
		}
	}
	return res
}

func paperOrderBook(d *Deps) func(ctx context.Context, in DetailIn) (any, error) {
	return func(ctx context.Context, in DetailIn) (any, error) {
		l, _, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		rows := make([]OrderRow, len(l.Orders))
		out := &OrderBookOut{}
		for i, o := range l.Orders {
			rows[i] = OrderRow{OrderID: o.ID, Exchange: o.Exch, TradingSymbol: o.TSym, Side: orders.SideName(o.Side),
				Quantity: float64(o.Qty), FilledQuantity: float64(o.Filled), Price: o.Price, AveragePrice: o.AvgPrice, Status: o.Status}
			if in.Detail {
				out.More = append(out.More, OrderMore{OrderType: orders.OrderTypeName(o.PriceType), IdempotencyKey: o.Key, Token: o.Token,
					TriggerPrice: o.Trigger, Product: orders.ProductName(o.Product), Validity: o.Validity, PlacedAt: o.Placed.In(istZone).Format("2006-01-02T15:04:05+05:30")})
			}
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = paperCoverage(len(rows), "no paper orders today")
		return out, nil
	}
}

// paperCoverage is a paper book's coverage: the book is kept here, whole.
func paperCoverage(n int, none string) envelope.Coverage {
	if n == 0 {
		return envelope.Nothing("the paper book has " + none)
	}
	return envelope.Whole()
}

func paperTradeBook(d *Deps) func(ctx context.Context, in DetailIn) (any, error) {
	return func(ctx context.Context, in DetailIn) (any, error) {
		l, _, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		rows := make([]TradeRow, len(l.Trades))
		out := &TradeBookOut{}
		for i, t := range l.Trades {
			rows[i] = TradeRow{OrderID: t.OrderID, Exchange: t.Exch, TradingSymbol: t.TSym, Side: orders.SideName(t.Side), FillQuantity: float64(t.Qty),
				FillPrice: t.Price, FillValue: round2(float64(t.Qty) * t.Price), FilledAt: t.At.In(istZone).Format("2006-01-02T15:04:05+05:30")}
			if in.Detail {
				out.More = append(out.More, TradeMore{FillID: t.ID, Product: orders.ProductName(t.Product),
					OrderQuantity: float64(t.Qty), AveragePrice: t.Price})
			}
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = paperCoverage(len(rows), "no paper fills today")
		return out, nil
	}
}

func paperPositions(d *Deps) func(ctx context.Context, in DetailIn) (any, error) {
	return func(ctx context.Context, in DetailIn) (any, error) {
		l, quotes, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		out := &PositionsOut{Positions: []PositionView{}}
		totalBasis := 0.0
		for _, p := range l.Positions() {
			ltp := quotes[p.Exch+"|"+p.TSym]
			v := PositionView{Exchange: p.Exch, TradingSymbol: p.TSym, Product: orders.ProductName(p.Product), NetQuantity: float64(p.Net),
				AveragePrice: p.NetAvg, LastPrice: ltp, RealisedPnL: round2(p.Realised), UnrealisedPnL: round2(p.Unrealised(ltp))}
			v.PnL = round2(v.RealisedPnL + v.UnrealisedPnL)
			basis := float64(p.BuyQty) * p.BuyAvg // as positionBasis: sold, for a net short
			if p.Net < 0 {
				basis = float64(p.SellQty) * p.SellAvg
			}
			if basis > 0 {
				v.PnLPct = round2(100 * v.PnL / basis)
			}
			totalBasis += basis
			if in.Detail {
				v.More = &PositionMore{Token: p.Token, DayBuyQuantity: float64(p.BuyQty), DaySellQuantity: float64(p.SellQty), DayBuyAverage: p.BuyAvg, DaySellAverage: p.SellAvg}
			}
			out.RealisedPnL += v.RealisedPnL
			out.UnrealisedPnL += v.UnrealisedPnL
			out.Positions = append(out.Positions, v)
		}
		out.RealisedPnL, out.UnrealisedPnL = round2(out.RealisedPnL), round2(out.UnrealisedPnL)
		out.PnL = round2(out.RealisedPnL + out.UnrealisedPnL)
		if totalBasis > 0 {
			out.PnLPct = round2(100 * out.PnL / totalBasis)
		}
		out.Coverage = paperCoverage(len(out.Positions), "no paper positions")
		return out, nil
	}
}

// paperHoldings are the paper book's delivery (CNC) buys still held, valued
// at the live quote; the real demat holdings are not part of the paper day.
func paperHoldings(d *Deps) func(ctx context.Context, in DetailIn) (any, error) {
	return func(ctx context.Context, in DetailIn) (any, error) {
		l, quotes, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		rows := []HoldingRow{}
		out := &HoldingsOut{}
		for _, p := range l.Positions() {
			if p.Product != "C" || p.Net <= 0 {
				continue
			}
			r := HoldingRow{Exchange: p.Exch, TradingSymbol: p.TSym, Quantity: float64(p.Net), SellableQuantity: float64(p.Net), AveragePrice: p.NetAvg}
			if ltp := quotes[p.Exch+"|"+p.TSym]; ltp > 0 {
				r.LastPrice, r.Value = ltp, round2(float64(p.Net)*ltp)
				cost := float64(p.Net) * p.NetAvg
				r.PnL = round2(r.Value - cost)
				if cost > 0 {
					r.PnLPct = round2(100 * r.PnL / cost)
				}
			}
			rows = append(rows, r)
			if in.Detail {
				out.More = append(out.More, HoldingMore{Token: p.Token})
			}
		}
		out.Totals = holdingTotals(rows)
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = paperCoverage(len(rows), "no delivery (CNC) buys held")
		if out.Totals.Unpriced > 0 {
			out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("last price of %d paper holding(s) (quote failed): their value and pnl are 0 and left out of totals", out.Totals.Unpriced),
				"call get_holdings again, or get_quotes for the unpriced rows")
		}
		return out, nil
	}
}

// paperLimits start from the account's real cash and charge the paper
// book: the open positions' cost as margin used, the pending orders, P&L.
func paperLimits(d *Deps) func(ctx context.Context, _ NoArgs) (any, error) {
	return func(ctx context.Context, _ NoArgs) (any, error) {
		real, err := do(ctx, d, func(a *noren.Auth) (noren.Limits, error) { return d.client().Limits(ctx, a) })
		if err != nil {
			return nil, err
		}
		l, quotes, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		out := &LimitsOut{Cash: float64(real.Cash), Payin: float64(real.Payin), Payout: float64(real.Payout), Collateral: float64(real.Collateral)}
		for _, p := range l.Positions() {
			out.MarginUsed += abs(float64(p.Net)) * p.NetAvg
			out.RealisedPnL += p.Realised
			out.UnrealisedMTM += p.Unrealised(quotes[p.Exch+"|"+p.TSym])
			out.Turnover += float64(p.BuyQty)*p.BuyAvg + float64(p.SellQty)*p.SellAvg
		}
		out.PendingOrderVal = l.PendingValue()
		out.MarginUsed, out.RealisedPnL, out.UnrealisedMTM, out.Turnover = round2(out.MarginUsed), round2(out.RealisedPnL), round2(out.UnrealisedMTM), round2(out.Turnover)
		out.AvailableEstim = round2(out.Cash + out.Payin + out.Collateral - out.Payout - out.MarginUsed + out.RealisedPnL)
		return out, nil
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func paperModify(d *Deps) func(ctx context.Context, in ModifyIn) (any, error) {
	return func(ctx context.Context, in ModifyIn) (any, error) {
		if err := d.guard().CheckTrading(ctx, user(ctx)); err != nil {
			return nil, err
		}
		if in.Quantity == 0 && in.OrderType == "" && in.Price == 0 && in.TriggerPrice == 0 {
			return nil, envelope.Invalid("price", "nothing to change: pass quantity, order_type, price or trigger_price")
		}
		l, err := d.paperBook().Read(ctx, user(ctx))
		if err != nil {
			return nil, err
		}
		var cur *paper.Order
		for i := range l.Orders {
			if l.Orders[i].ID == in.OrderID {
				cur = &l.Orders[i]
			}
		}
		if cur == nil {
			return nil, envelope.New(envelope.NotFound, "no paper order %s today; get_order_book lists the paper orders", in.OrderID)
		}
		full, err := completeModify(in, noren.Order{OrderNo: cur.ID, Status: cur.Status, Exch: cur.Exch, TSym: cur.TSym, Qty: noren.Num(cur.Qty),
			FillShares: noren.Num(cur.Filled), PriceType: cur.PriceType, Price: noren.Num(cur.Price), Trigger: noren.Num(cur.Trigger)})
		if err != nil {
			return nil, err
		}
		o, err := mapOrder(PlaceIn{Exchange: full.Exchange, TradingSymbol: full.TradingSymbol, Side: orders.SideName(cur.Side), Quantity: full.Quantity,
			OrderType: full.OrderType, Price: full.Price, TriggerPrice: full.TriggerPrice})
		if err != nil {
			return nil, err
		}
		if err := d.Limits.CheckStatic(o.Exch, "", o.Qty, max(o.Price, o.Trigger)); err != nil {
			return nil, err
		}
		got, err := do(ctx, d, func(a *noren.Auth) (paper.Order, error) {
			inst, err := d.instrument(ctx, a, o.Exch, o.TSym)
			if err != nil {
				return paper.Order{}, err
			}
			m := o
			if _, err := prepare(&m, PlaceIn{Side: orders.SideName(cur.Side)}, inst); err != nil {
				return paper.Order{}, err
			}
			return d.paperBook().Modify(ctx, user(ctx), in.OrderID, m.Qty, m.PriceType, orders.Wire(m.Price, m.Decimals), m.Trigger, inst.LTP)
		})
		if err != nil {
			return nil, err
		}
		return &ModifyAck{OrderAck: OrderAck{OrderID: got.ID, Status: "modified", Next: paperNote + "the paper order is " + got.Status + "; get_order_book shows it"},
			Sent: fmt.Sprintf("%s %s %d @ %g", orders.OrderTypeName(got.PriceType), got.TSym, got.Qty, got.Price)}, nil
	}
}

func paperCancel(d *Deps) func(ctx context.Context, in CancelIn) (any, error) {
	return func(ctx context.Context, in CancelIn) (any, error) {
		got, err := d.paperBook().Cancel(ctx, user(ctx), in.OrderID)
		if err != nil {
			return nil, err
		}
		return &OrderAck{OrderID: got.ID, Status: "cancelled", Next: paperNote + "the paper order is CANCELED"}, nil
	}
}
