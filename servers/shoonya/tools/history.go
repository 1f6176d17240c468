package tools

import (
	"context"
	"errors"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// HistoryIn is get_order_history's input.
type HistoryIn struct {
	OrderID string `json:"order_id" jsonschema:"from place_order or get_order_book" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
}

// HistoryRow is one state of the order (a row of the table), newest first;
// report is Noren's rpt (NewAck, PendingNew, New, Fill, Rejected, Replaced,
// Canceled, ...: ShoonyaApi-py README annexure).
type HistoryRow struct {
	At           string  `json:"at"`
	Status       string  `json:"status"`
	Report       string  `json:"report"`
	Quantity     float64 `json:"quantity"`
	Filled       float64 `json:"filled_quantity"`
	Price        float64 `json:"price"`
	AveragePrice float64 `json:"average_price"`
	RejectReason string  `json:"reject_reason"`
}

// HistoryOut is every state of one order.
type HistoryOut struct {
	envelope.Coverage
	OrderID       string   `json:"order_id"`
	TradingSymbol string   `json:"trading_symbol"`
	Side          string   `json:"side"`
	Status        string   `json:"status" jsonschema:"now"`
	Cols          []string `json:"cols" jsonschema:"at,status,report,quantity,filled_quantity,price,average_price,reject_reason"`
	Rows          [][]any  `json:"rows" mcp:"type=array"`
}

// List decodes the rows back (for Go callers and tests).
func (o HistoryOut) List() []HistoryRow {
	l, _ := toolkit.Untabulate[HistoryRow](o.Cols, o.Rows)
	return l
}

func historyOut(id string, list []noren.HistoryRow) HistoryOut {
	out := HistoryOut{OrderID: id, Coverage: envelope.Whole()}
	rows := make([]HistoryRow, len(list))
	for i, h := range list {
		at := norenTime(h.ExchTime)
		if at == "" || h.ExchTime == "00:00:00 01-01-1980" { // the README sample's "no exchange time"
			at = norenTime(h.NorenTime)
		}
		rows[i] = HistoryRow{At: at, Status: orders.Status(h.Status), Report: h.Report, Quantity: float64(h.Qty), Filled: float64(h.FillShares),
			Price: float64(h.Price), AveragePrice: float64(h.AvgPrice), RejectReason: h.RejReason}
	}
	if len(list) > 0 {
		out.TradingSymbol, out.Side, out.Status = list[0].TSym, orders.SideName(list[0].TranType), rows[0].Status
	}
	out.Cols, out.Rows = toolkit.Tabulate(rows)
	return out
}

func orderHistoryTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_order_history", Title: "Order history", Toolset: "books",
		Description: "Every state of one order, newest first (a table, see cols): times, fills, reject reasons.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in HistoryIn) (HistoryOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.HistoryRow, error) { return d.client().SingleOrdHist(ctx, a, in.OrderID) })
		if noren.IsNoData(err) {
			var e *envelope.Error
			errors.As(err, &e)
			return HistoryOut{}, envelope.New(envelope.NotFound, "Shoonya has no order %s today; get_order_book lists today's orders", in.OrderID).
				WithDetail("broker_message", e.Details["broker_message"]).WithCause(err)
		}
		if err != nil {
			return HistoryOut{}, err
		}
		return historyOut(in.OrderID, list), nil
	})
}

// paperHistory answers from the paper book, which keeps each order's
// present state only: one row, the coverage says so.
func paperHistory(d *Deps) func(ctx context.Context, in HistoryIn) (any, error) {
	return func(ctx context.Context, in HistoryIn) (any, error) {
		l, _, err := d.paperLedger(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range l.Orders {
			if o.ID != in.OrderID {
				continue
			}
			out := &HistoryOut{OrderID: o.ID, TradingSymbol: o.TSym, Side: orders.SideName(o.Side), Status: o.Status,
				Coverage: envelope.Cut(envelope.Partial, "earlier states: the paper book keeps each order's present state only", "get_order_book")}
			out.Cols, out.Rows = toolkit.Tabulate([]HistoryRow{{At: o.Placed.In(istZone).Format("2006-01-02T15:04:05+05:30"), Status: o.Status,
				Quantity: float64(o.Qty), Filled: float64(o.Filled), Price: o.Price, AveragePrice: o.AvgPrice}})
			return out, nil
		}
		return nil, envelope.New(envelope.NotFound, "no paper order %s; get_order_book lists the paper orders", in.OrderID)
	}
}
