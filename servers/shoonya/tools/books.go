package tools

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// NoArgs is the input of tools without parameters.
type NoArgs struct{}

// DetailIn is the input of the book tools. Rows carry the fields an agent
// decides on; detail adds the rest under "more", typed only as an object in the
// output schema because every client pays for tools/list and few read them.
type DetailIn struct {
	Detail bool `json:"detail,omitempty"`
}

// The order, trade and holdings books are tables (cols once, then rows of
// values; toolkit.Tabulate): their rows are uniform and short, so keys would
// be most of the bytes (the 30% list budget of docs/benchmarks.md). With detail, more[i] is
// the rest of rows[i].

// OrderRow is one order with readable names and real numbers; exchange is
// there because modify_order takes it.
type OrderRow struct {
	OrderID        string  `json:"order_id"`
	Exchange       string  `json:"exchange"`
	TradingSymbol  string  `json:"trading_symbol"`
	Side           string  `json:"side"`
	Quantity       float64 `json:"quantity"`
	FilledQuantity float64 `json:"filled_quantity"`
	Price          float64 `json:"price"`
	AveragePrice   float64 `json:"average_price"`
	Status         string  `json:"status"`
	RejectReason   string  `json:"reject_reason"`
}

// OrderMore is the rest of an order (detail).
type OrderMore struct {
	OrderType       string  `json:"order_type"`
	IdempotencyKey  string  `json:"idempotency_key,omitempty"`
	Token           string  `json:"token,omitempty"`
	CancelledQty    float64 `json:"cancelled_quantity"`
	TriggerPrice    float64 `json:"trigger_price,omitempty"`
	Product         string  `json:"product"`
	Validity        string  `json:"validity,omitempty"`
	ExchangeOrderID string  `json:"exchange_order_id,omitempty"`
	PlacedAt        string  `json:"placed_at,omitempty"`
}

func orderRow(o noren.Order) OrderRow {
	return OrderRow{
		OrderID: o.OrderNo, Exchange: o.Exch, TradingSymbol: o.TSym,
		Side: orders.SideName(o.TranType), Quantity: float64(o.Qty), FilledQuantity: float64(o.FillShares),
		Price: float64(o.Price), AveragePrice: float64(o.AvgPrice), Status: orders.Status(o.Status), RejectReason: o.RejReason,
	}
}

func orderMore(o noren.Order) OrderMore {
	return OrderMore{OrderType: orders.OrderTypeName(o.PriceType), IdempotencyKey: string(o.Remarks), Token: o.Token, CancelledQty: float64(o.CancelQty), TriggerPrice: float64(o.Trigger),
		Product: orders.ProductName(o.Product), Validity: o.Retention, ExchangeOrderID: o.ExchOrdID, PlacedAt: norenTime(o.NorenTime)}
}

// OrderBookOut is get_order_book's result.
type OrderBookOut struct {
	envelope.Coverage
	Cols []string    `json:"cols" jsonschema:"order_id,exchange,trading_symbol,side,quantity,filled_quantity,price,average_price,status,reject_reason"`
	Rows [][]any     `json:"rows" mcp:"type=array"`
	More []OrderMore `json:"more,omitempty" mcp:"type=object"`
}

// List decodes the rows back into orders (for Go callers and tests); a
// malformed table gives none.
func (o OrderBookOut) List() []OrderRow {
	l, _ := toolkit.Untabulate[OrderRow](o.Cols, o.Rows)
	return l
}

func orderBookTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_order_book", Title: "Order book", Toolset: "books",
		Description: "Today's orders as a table (see cols); detail adds more[i]: type, idempotency key, product, trigger, times. " +
			"Use after the order tools to see the outcome.",
		Hints: toolkit.RemoteRead,
	}, func(ctx context.Context, in DetailIn) (OrderBookOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Order, error) { return d.client().OrderBook(ctx, a) })
		if err != nil {
			return OrderBookOut{}, err
		}
		rows := make([]OrderRow, len(list))
		var out OrderBookOut
		for i, o := range list {
			rows[i] = orderRow(o)
			if in.Detail {
				out.More = append(out.More, orderMore(o))
			}
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = bookCoverage(len(list), "no orders today")
		return out, nil
	})
}

// bookCoverage is a whole book's coverage: Noren answers a book whole or
// refuses it (a refusal is an error, see noren.DecodeList), so an empty one
// is its "no data" answer.
func bookCoverage(n int, none string) envelope.Coverage {
	if n == 0 {
		return envelope.Nothing("Shoonya answered \"no data\": " + none)
	}
	return envelope.Whole()
}

// TradeRow is one fill; exchange is what the order tools take, fill_value
// is quantity × price (rupees, before charges).
type TradeRow struct {
	OrderID       string  `json:"order_id"`
	Exchange      string  `json:"exchange"`
	TradingSymbol string  `json:"trading_symbol"`
	Side          string  `json:"side"`
	FillQuantity  float64 `json:"fill_quantity"`
	FillPrice     float64 `json:"fill_price"`
	FillValue     float64 `json:"fill_value"`
	FilledAt      string  `json:"filled_at"`
}

// TradeMore is the rest of a fill (detail).
type TradeMore struct {
	FillID        string  `json:"fill_id,omitempty"`
	Product       string  `json:"product"`
	OrderType     string  `json:"order_type"`
	OrderQuantity float64 `json:"order_quantity"`
	AveragePrice  float64 `json:"average_price"`
	Remarks       string  `json:"remarks,omitempty"`
}

// TradeBookOut is get_trade_book's result.
type TradeBookOut struct {
	envelope.Coverage
	Cols []string    `json:"cols" jsonschema:"order_id,exchange,trading_symbol,side,fill_quantity,fill_price,fill_value,filled_at"`
	Rows [][]any     `json:"rows" mcp:"type=array"`
	More []TradeMore `json:"more,omitempty" mcp:"type=object"`
}

// List decodes the rows back into fills (for Go callers and tests).
func (o TradeBookOut) List() []TradeRow {
	l, _ := toolkit.Untabulate[TradeRow](o.Cols, o.Rows)
	return l
}

func tradeBookTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_trade_book", Title: "Trade book", Toolset: "books",
		Description: "Today's fills as a table (see cols); detail adds more[i]: product, order type, remarks. Order status: get_order_book.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in DetailIn) (TradeBookOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Trade, error) { return d.client().TradeBook(ctx, a) })
		if err != nil {
			return TradeBookOut{}, err
		}
		rows := make([]TradeRow, len(list))
		var out TradeBookOut
		for i, t := range list {
			rows[i] = TradeRow{OrderID: t.OrderNo, Exchange: t.Exch, TradingSymbol: t.TSym, Side: orders.SideName(t.TranType),
				FillQuantity: float64(t.FillQty), FillPrice: float64(t.FillPrice), FillValue: round2(float64(t.FillQty) * float64(t.FillPrice)),
				FilledAt: norenTime(t.FillTime)}
			if in.Detail {
				out.More = append(out.More, TradeMore{FillID: t.FillID, Product: orders.ProductName(t.Product),
					OrderType: orders.OrderTypeName(t.PriceType), OrderQuantity: float64(t.Qty), AveragePrice: float64(t.AvgPrice),
					Remarks: string(t.Remarks)})
			}
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = bookCoverage(len(list), "no fills today")
		return out, nil
	})
}

// PositionView is one net position.
type PositionView struct {
	Exchange      string        `json:"exchange"`
	TradingSymbol string        `json:"trading_symbol"`
	Product       string        `json:"product"`
	NetQuantity   float64       `json:"net_quantity" jsonschema:"negative: short"`
	AveragePrice  float64       `json:"average_price"`
	LastPrice     float64       `json:"last_price"`
	RealisedPnL   float64       `json:"realised_pnl"`
	UnrealisedPnL float64       `json:"unrealised_pnl"`
	PnL           float64       `json:"pnl"`
	PnLPct        float64       `json:"pnl_percent"` // of the value bought (sold, for a net short): positionBasis
	More          *PositionMore `json:"more,omitempty" mcp:"type=object"`
}

// PositionMore is the rest of a position (detail).
type PositionMore struct {
	Token            string  `json:"token,omitempty"`
	DayBuyQuantity   float64 `json:"day_buy_quantity"`
	DaySellQuantity  float64 `json:"day_sell_quantity"`
	DayBuyAverage    float64 `json:"day_buy_average"`
	DaySellAverage   float64 `json:"day_sell_average"`
	CarryForwardBuy  float64 `json:"carry_forward_buy_quantity"`
	CarryForwardSell float64 `json:"carry_forward_sell_quantity"`
}

// PositionsOut is get_positions' result.
type PositionsOut struct {
	envelope.Coverage
	Positions     []PositionView `json:"positions"`
	RealisedPnL   float64        `json:"total_realised_pnl"`
	UnrealisedPnL float64        `json:"total_unrealised_pnl"`
	PnL           float64        `json:"total_pnl"`
	PnLPct        float64        `json:"total_pnl_percent"`
}

func positionsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_positions", Title: "Positions", Toolset: "books",
		Description: "Net positions with P&L (realised, unrealised, total, percent) and totals; detail: day and carry-forward quantities. Demat: get_holdings.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in DetailIn) (PositionsOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Position, error) { return d.client().Positions(ctx, a) })
		if err != nil {
			return PositionsOut{}, err
		}
		out := PositionsOut{Positions: make([]PositionView, 0, len(list)), Coverage: bookCoverage(len(list), "no positions")}
		totalBasis := 0.0
		for _, p := range list {
			v := PositionView{
				Exchange: p.Exch, TradingSymbol: p.TSym, Product: orders.ProductName(p.Product),
				NetQuantity: round2(float64(p.NetQty)), AveragePrice: float64(p.NetAvgPrice), LastPrice: float64(p.LastPrice),
				RealisedPnL: round2(float64(p.RealisedPnL)), UnrealisedPnL: round2(float64(p.UnrealisedMTM)),
			}
			v.PnL = round2(v.RealisedPnL + v.UnrealisedPnL)
			basis := positionBasis(p)
			if basis > 0 {
				v.PnLPct = round2(100 * v.PnL / basis)
			}
			totalBasis += basis
			if in.Detail {
				v.More = &PositionMore{Token: p.Token, DayBuyQuantity: float64(p.DayBuyQty), DaySellQuantity: float64(p.DaySellQty),
					DayBuyAverage: float64(p.DayBuyAvg), DaySellAverage: float64(p.DaySellAvg),
					CarryForwardBuy: float64(p.CFBuyQty), CarryForwardSell: float64(p.CFSellQty)}
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
		return out, nil
	})
}

// positionBasis is what a position's P&L is a percentage of: the value
// bought today and carried in (sold, for a net short).
func positionBasis(p noren.Position) float64 {
	if p.NetQty < 0 {
		return float64(p.DaySellAmt + p.CFSellAmt)
	}
	return float64(p.DayBuyAmt + p.CFBuyAmt)
}

// HoldingRow is one demat holding; exchange and symbol are what place_order
// sells it by.
type HoldingRow struct {
	Exchange         string  `json:"exchange"`
	TradingSymbol    string  `json:"trading_symbol"`
	Quantity         float64 `json:"quantity"`
	SellableQuantity float64 `json:"sellable_quantity"`
	AveragePrice     float64 `json:"average_price"`
	LastPrice        float64 `json:"last_price"`
	Value            float64 `json:"value"`
	PnL              float64 `json:"pnl"`
	PnLPct           float64 `json:"pnl_percent"`
}

// HoldingTotals sum the holdings valued at their last price.
type HoldingTotals struct {
	Invested float64 `json:"invested"`
	Value    float64 `json:"value"`
	PnL      float64 `json:"pnl"`
	PnLPct   float64 `json:"pnl_percent"`
	Unpriced int     `json:"unpriced,omitempty"` // holdings with no quote, left out of the totals
}

// HoldingMore is the rest of a holding (detail).
type HoldingMore struct {
	Token         string  `json:"token,omitempty"`
	T1Quantity    float64 `json:"t1_quantity"`
	CollateralQty float64 `json:"collateral_quantity"`
	UsedQuantity  float64 `json:"used_quantity"`
}

// HoldingsOut is get_holdings' result.
type HoldingsOut struct {
	envelope.Coverage
	Cols   []string      `json:"cols" jsonschema:"exchange,trading_symbol,quantity,sellable_quantity,average_price,last_price,value,pnl,pnl_percent"`
	Rows   [][]any       `json:"rows" mcp:"type=array"`
	Totals HoldingTotals `json:"totals"`
	More   []HoldingMore `json:"more,omitempty" mcp:"type=object"`
}

// List decodes the rows back into holdings (for Go callers and tests).
func (o HoldingsOut) List() []HoldingRow {
	l, _ := toolkit.Untabulate[HoldingRow](o.Cols, o.Rows)
	return l
}

func holdingsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_holdings", Title: "Holdings", Toolset: "books",
		Description: "Demat holdings valued at last price (a quote each), with totals; detail adds more[i]: T1, collateral, used. Intraday/F&O: get_positions.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in DetailIn) (HoldingsOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Holding, error) { return d.client().Holdings(ctx, a, "C") })
		if err != nil {
			return HoldingsOut{}, err
		}
		rows := make([]HoldingRow, len(list))
		tokens := make([]string, len(list))
		var out HoldingsOut
		for i, h := range list {
			v := HoldingRow{
				// The ShoonyaApi-py README's Holdings formulas.
				Quantity:         float64(h.BTSTQty + h.HoldQty + h.BrkColQty + h.UnplgdQty + h.BenQty + max(h.NPOADQty, h.DPQty) - h.UsedQty),
				SellableQuantity: float64(h.BTSTQty + h.HoldQty + h.UnplgdQty + h.BenQty + h.DPQty - h.UsedQty),
				AveragePrice:     float64(h.UploadPrc),
			}
			token := ""
			// Prefer the NSE listing when a holding lists several exchanges.
			for i, s := range h.Scrips {
				if i == 0 || strings.EqualFold(s.Exch, "NSE") {
					v.Exchange, v.TradingSymbol, token = s.Exch, s.TSym, s.Token
				}
			}
			if in.Detail {
				out.More = append(out.More, HoldingMore{Token: token, T1Quantity: float64(h.BTSTQty), CollateralQty: float64(h.ColQty), UsedQuantity: float64(h.UsedQty)})
			}
			rows[i], tokens[i] = v, token
		}
		if err := d.valueHoldings(ctx, rows, tokens); err != nil {
			return HoldingsOut{}, err
		}
		out.Totals = holdingTotals(rows)
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage = bookCoverage(len(list), "no holdings")
		if out.Totals.Unpriced > 0 {
			out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("last price of %d holding(s) (quote failed): their value and pnl are 0 and left out of totals", out.Totals.Unpriced),
				"call get_holdings again, or get_quotes for the unpriced rows")
		}
		return out, nil
	})
}

// LimitsOut is get_limits' result (rupees).
type LimitsOut struct {
	Cash            float64 `json:"cash"`
	Payin           float64 `json:"payin"`
	Payout          float64 `json:"payout"`
	Collateral      float64 `json:"collateral"`
	UnclearedCash   float64 `json:"uncleared_cash"`
	DayCash         float64 `json:"day_cash"`
	MarginUsed      float64 `json:"margin_used"`
	Span            float64 `json:"span"`
	Exposure        float64 `json:"exposure"`
	Premium         float64 `json:"premium"`
	RealisedPnL     float64 `json:"realised_pnl"`
	UnrealisedMTM   float64 `json:"unrealised_mtm"`
	Turnover        float64 `json:"turnover"`
	PendingOrderVal float64 `json:"pending_order_value"`
	AvailableEstim  float64 `json:"available_estimate" jsonschema:"cash+payin+collateral-payout-margin_used"`
}

func limitsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_limits", Title: "Funds and margins", Toolset: "books",
		Description: "Funds and margins: cash, payin/payout, collateral, margin used (span, exposure, premium), P&L, estimated available. Use before large orders.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, _ NoArgs) (LimitsOut, error) {
		l, err := do(ctx, d, func(a *noren.Auth) (noren.Limits, error) { return d.client().Limits(ctx, a) })
		if err != nil {
			return LimitsOut{}, err
		}
		mtm := l.URMTOM
		if mtm == 0 {
			mtm = l.UNMTOM
		}
		return LimitsOut{
			Cash: float64(l.Cash), Payin: float64(l.Payin), Payout: float64(l.Payout), Collateral: float64(l.Collateral),
			UnclearedCash: float64(l.UnclearedCash), DayCash: float64(l.DayCash), MarginUsed: float64(l.MarginUsed),
			Span: float64(l.Span), Exposure: float64(l.Expo), Premium: float64(l.Premium), RealisedPnL: float64(l.RPnL),
			UnrealisedMTM: float64(mtm), Turnover: float64(l.Turnover), PendingOrderVal: float64(l.PendOrdVal),
			AvailableEstim: float64(l.Cash + l.Payin + l.Collateral - l.Payout - l.MarginUsed),
		}, nil
	})
}

// valueHoldings prices each holding at its last traded price (GetQuotes,
// lp; the Holdings answer carries no price but upldprc),
// a few quotes at a time. A holding whose quote fails keeps last_price 0 and
// is counted unpriced; a lost session fails the call.
func (d *Deps) valueHoldings(ctx context.Context, rows []HoldingRow, tokens []string) error {
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, d.ChainConcurrency))
	var mu sync.Mutex
	var authErr error
	for i := range rows {
		if tokens[i] == "" || rows[i].Exchange == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			q, err := do(ctx, d, func(a *noren.Auth) (noren.Quote, error) {
				return d.client().GetQuotes(ctx, a, rows[i].Exchange, tokens[i])
			})
			if err != nil {
				if envelope.From(err).Code == envelope.Unauthenticated {
					mu.Lock()
					authErr = err
					mu.Unlock()
				}
				return
			}
			r := &rows[i]
			r.LastPrice = float64(q.LP)
			if r.LastPrice <= 0 {
				return
			}
			r.Value = round2(r.Quantity * r.LastPrice)
			cost := r.Quantity * r.AveragePrice
			r.PnL = round2(r.Value - cost)
			if cost > 0 {
				r.PnLPct = round2(100 * (r.Value - cost) / cost)
			}
		}()
	}
	wg.Wait()
	if authErr != nil {
		return authErr
	}
	if err := ctx.Err(); err != nil {
		return envelope.From(err)
	}
	return nil
}

func holdingTotals(rows []HoldingRow) HoldingTotals {
	var t HoldingTotals
	for _, r := range rows {
		if r.LastPrice <= 0 {
			t.Unpriced++
			continue
		}
		t.Invested += r.Quantity * r.AveragePrice
		t.Value += r.Value
	}
	t.Invested, t.Value = round2(t.Invested), round2(t.Value)
	t.PnL = round2(t.Value - t.Invested)
	if t.Invested > 0 {
		t.PnLPct = round2(100 * t.PnL / t.Invested)
	}
	return t
}

// round2 rounds to paise; a result that rounds to zero is +0, never the
// "-0" a negative cent-fraction would print.
func round2(v float64) float64 {
	r := math.Round(v*100) / 100
	if r == 0 {
		return 0 // -0 == 0: this drops the sign
	}
	return r
}
