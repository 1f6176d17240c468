package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// GTTIn is place_gtt's input: a single-trigger GTT (Noren PlaceGTTOrder).
type GTTIn struct {
	Exchange      string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol" mcp:"minLength=1"`
	Side          string  `json:"side" mcp:"enum=BUY|SELL"`
	Quantity      int     `json:"quantity" mcp:"min=1"`
	TriggerPrice  float64 `json:"trigger_price" jsonschema:"fires when the last price crosses it" mcp:"min=0"`
	Price         float64 `json:"price" jsonschema:"the LIMIT order's price" mcp:"min=0"`
	Product       string  `json:"product,omitempty" jsonschema:"default CNC" mcp:"enum=CNC|INTRADAY|NORMAL"`
}

// gttReq is a GTT as confirmed and sent (the ticket binds all of it):
// Above is set from the last price (fires above it, else below); Key goes
// as remarks, so a repeat finds the GTT already placed.
type gttReq struct {
	GTTIn
	Above bool   `json:"above"`
	Key   string `json:"key"`
}

// GTTOut is place_gtt's result.
type GTTOut struct {
	GTTID          string `json:"gtt_id,omitempty"`
	Condition      string `json:"condition"`
	Outcome        string `json:"outcome"` // placed, already_placed, confirmation_required
	Mode           string `json:"mode"`
	Next           string `json:"next"`
	ConfirmURL     string `json:"confirm_url,omitempty"`
	ConfirmExpires string `json:"confirm_expires,omitempty"`
}

func placeGTTTool(d *Deps) toolkit.Tool {
	t := toolkit.New(toolkit.Def{
		Name: "place_gtt", Title: "Place GTT", Toolset: "gtt",
		Description: "Good-till-triggered LIMIT order: placed when the last price crosses trigger_price (direction from the current price). Ticks, lot, circuits checked. " +
			"User confirms (confirmation_required: give them confirm_url).",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in GTTIn) (GTTOut, error) { return GTTOut{}, nil }) // withConfirmation's handler runs
	return withConfirmation(d, t, d.gttWrite())
}

func (g gttReq) condition() string {
	dir := "below"
	if g.Above {
		dir = "above"
	}
	return fmt.Sprintf("when %s's last price goes %s %g: %s %d at LIMIT %g (%s)", g.TradingSymbol, dir, g.TriggerPrice, g.Side, g.Quantity, g.Price, defaultStr(g.Product, "CNC"))
}

func (d *Deps) gttWrite() write[gttReq, GTTOut] {
	return write[gttReq, GTTOut]{
		tool: "place_gtt",
		vet: func(ctx context.Context, in *gttReq) (plan[GTTOut], error) {
			in.Exchange, in.TradingSymbol = strings.ToUpper(in.Exchange), strings.TrimSpace(in.TradingSymbol)
			in.Product = defaultStr(in.Product, "CNC")
			if err := d.guard().CheckTrading(ctx, user(ctx)); err != nil {
				return plan[GTTOut]{}, err
			}
			if d.paper(ctx) {
				return plan[GTTOut]{}, envelope.New(envelope.PermissionDenied, "GTTs are not simulated in paper mode (%s=paper); nothing was sent", guard.EnvTrading).WithDetail("mode", "paper")
			}
			if err := d.Limits.CheckStatic(in.Exchange, in.Product, in.Quantity, in.Price); err != nil {
				return plan[GTTOut]{}, err
			}
			_, err := do(ctx, d, func(a *noren.Auth) (struct{}, error) {
				inst, err := d.instrument(ctx, a, in.Exchange, in.TradingSymbol)
				if err != nil {
					return struct{}{}, err
				}
				if err := orders.CheckLot("quantity", in.Quantity, inst); err != nil {
					return struct{}{}, err
				}
				for _, p := range []struct {
					f string
					v float64
				}{{"trigger_price", in.TriggerPrice}, {"price", in.Price}} {
					if err := orders.CheckPrice(p.f, p.v, inst); err != nil {
						return struct{}{}, err
					}
				}
				if inst.LTP <= 0 || in.TriggerPrice == inst.LTP {
					return struct{}{}, envelope.Invalid("trigger_price", "trigger_price must be above or below the last price %g (a GTT fires when the price crosses it)", inst.LTP)
				}
				in.Above = in.TriggerPrice > inst.LTP
				return struct{}{}, nil
			})
			if err != nil {
				return plan[GTTOut]{}, err
			}
			sum := sha256.Sum256(fmt.Appendf(nil, "%s|%s|%+v|%t", user(ctx), d.now().In(istZone).Format("2006-01-02"), in.GTTIn, in.Above))
			in.Key = "gtt-" + hex.EncodeToString(sum[:])[:16]
			return plan[GTTOut]{button: "Place this GTT", summary: "Place a REAL GTT on Shoonya: " + in.condition() + "?"}, nil
		},
		send: func(ctx context.Context, in gttReq, _ bool) (GTTOut, error) {
			out := GTTOut{Condition: in.condition(), Mode: string(guard.Live)}
			side, err1 := orders.Code("side", orders.Sides, in.Side)
			prd, err2 := orders.Code("product", orders.Products, in.Product)
			if err := firstErr(err1, err2); err != nil {
				return GTTOut{}, err
			}
			id, err := do(ctx, d, func(a *noren.Auth) (string, error) {
				// A GTT placed under this key already (the page pressed twice,
				// a lost answer) is not placed again.
				pending, err := d.client().PendingGTTs(ctx, a)
				if err != nil && !noren.IsNoData(err) {
					return "", err
				}
				for _, g := range pending {
					if string(g.Remarks) == in.Key {
						out.Outcome = "already_placed"
						return g.ID, nil
					}
				}
				return d.client().PlaceGTTOrder(ctx, a, noren.GTTRequest{Exch: in.Exchange, TSym: in.TradingSymbol, Above: in.Above,
					Trigger: in.TriggerPrice, TranType: side, Product: prd, Qty: in.Quantity, Price: in.Price, Remarks: in.Key})
			})
			if err != nil {
				return GTTOut{}, err
			}
			out.GTTID = id
			if out.Outcome == "" {
				out.Outcome = "placed"
			}
			out.Next = "get_gtts lists it; cancel_gtt removes it. When it fires the order shows in get_order_book"
			return out, nil
		},
		pending: func(in gttReq, c pendingConfirm) GTTOut {
			return GTTOut{Condition: in.condition(), Outcome: "confirmation_required", Mode: string(guard.Live), ConfirmURL: c.URL, ConfirmExpires: c.Expires, Next: c.Next}
		},
		said: func(out GTTOut) string {
			return "GTT " + out.Outcome + ": " + out.GTTID + ". The assistant can follow it with get_gtts."
		},
		then: "Then check get_gtts.",
	}
}

// GTTRow is one pending GTT.
type GTTRow struct {
	GTTID         string  `json:"gtt_id"`
	Exchange      string  `json:"exchange"`
	TradingSymbol string  `json:"trading_symbol"`
	When          string  `json:"when"` // above, below
	TriggerPrice  float64 `json:"trigger_price"`
	Side          string  `json:"side"`
	Quantity      float64 `json:"quantity"`
	Price         float64 `json:"price"`
	Product       string  `json:"product"`
}

// GTTsOut is get_gtts's result.
type GTTsOut struct {
	GTTs []GTTRow `json:"gtts"`
	envelope.Coverage
}

func getGTTsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_gtts", Title: "Pending GTTs", Toolset: "gtt",
		Description: "Pending GTTs (place_gtt). A refused read is an error, never an empty list.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, _ struct{}) (GTTsOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.GTT, error) { return d.client().PendingGTTs(ctx, a) })
		if err != nil {
			return GTTsOut{}, err
		}
		out := GTTsOut{GTTs: make([]GTTRow, 0, len(list)), Coverage: bookCoverage(len(list), "no pending GTTs")}
		for _, g := range list {
			when := map[string]string{"LTP_A_O": "above", "LTP_B_O": "below"}[g.AlertType]
			out.GTTs = append(out.GTTs, GTTRow{GTTID: g.ID, Exchange: g.Exch, TradingSymbol: g.TSym, When: firstNonEmpty(when, g.AlertType),
				TriggerPrice: float64(g.Trigger), Side: orders.SideName(g.TranType), Quantity: float64(g.Qty), Price: float64(g.Price), Product: orders.ProductName(g.Product)})
		}
		return out, nil
	})
}

// CancelGTTIn is cancel_gtt's input.
type CancelGTTIn struct {
	GTTID string `json:"gtt_id" jsonschema:"from get_gtts" mcp:"pattern=^[0-9A-Za-z]{1,32}$"`
}

func cancelGTTTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "cancel_gtt", Title: "Cancel GTT", Toolset: "gtt",
		Description: "Cancel a pending GTT. Sent once; on outcome_unknown check get_gtts.",
		Hints:       toolkit.RemoteDestructive,
	}, func(ctx context.Context, in CancelGTTIn) (OrderAck, error) {
		if d.paper(ctx) {
			return OrderAck{}, envelope.New(envelope.PermissionDenied, "GTTs are not simulated in paper mode; nothing was sent").WithDetail("mode", "paper")
		}
		if _, err := do(ctx, d, func(a *noren.Auth) (struct{}, error) { return struct{}{}, d.client().CancelGTTOrder(ctx, a, in.GTTID) }); err != nil {
			return OrderAck{}, err
		}
		return OrderAck{OrderID: in.GTTID, Status: "cancelled", Next: "get_gtts no longer lists it"}, nil
	})
}
