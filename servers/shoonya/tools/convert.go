package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// ConvertIn is convert_position's input; what is left out comes from the
// position in get_positions.
type ConvertIn struct {
	Exchange      string `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string `json:"trading_symbol" mcp:"minLength=1;maxLength=64"`
	ToProduct     string `json:"to_product" mcp:"enum=CNC|INTRADAY|NORMAL|MTF"`
	FromProduct   string `json:"from_product,omitempty" mcp:"enum=CNC|INTRADAY|NORMAL|MTF"`
	Quantity      int    `json:"quantity,omitempty" jsonschema:"default: all open" mcp:"min=1"`
}

// convertReq is a conversion as confirmed and sent: the arguments and what
// the position adds (its side, long BUY or short SELL, and DAY or CF), so
// the ticket binds exactly what goes.
type convertReq struct {
	ConvertIn
	Side         string `json:"side,omitempty"`
	PositionType string `json:"position_type,omitempty"`
}

// ConvertOut is convert_position's result: what changed.
type ConvertOut struct {
	TradingSymbol  string `json:"trading_symbol"`
	FromProduct    string `json:"from_product"`
	ToProduct      string `json:"to_product"`
	Quantity       int    `json:"quantity"`
	Outcome        string `json:"outcome"` // converted, confirmation_required
	Mode           string `json:"mode"`
	Next           string `json:"next"`
	ConfirmURL     string `json:"confirm_url,omitempty"`
	ConfirmExpires string `json:"confirm_expires,omitempty"`
}

func convertPositionTool(d *Deps) toolkit.Tool {
	w := d.convertWrite()
	t := toolkit.New(toolkit.Def{
		Name: "convert_position", Title: "Convert position", Toolset: "orders",
		Description: "Move an open position to another product (e.g. INTRADAY→CNC to carry it). " +
			"User confirms (confirmation_required: give them confirm_url).",
		Hints: toolkit.RemoteDestructive,
	}, func(ctx context.Context, in ConvertIn) (ConvertOut, error) { return ConvertOut{}, nil }) // withConfirmation's handler runs

	return withConfirmation(d, t, w)
}

func (d *Deps) convertWrite() write[convertReq, ConvertOut] {
	return write[convertReq, ConvertOut]{
		tool: "convert_position",
		vet: func(ctx context.Context, in *convertReq) (plan[ConvertOut], error) {
			in.Exchange, in.TradingSymbol = strings.ToUpper(in.Exchange), strings.TrimSpace(in.TradingSymbol)
			if err := d.guard().CheckTrading(ctx, user(ctx)); err != nil {
				return plan[ConvertOut]{}, err // a conversion changes the margin held, like a new order
			}
			var err error
			if d.paper(ctx) {
				err = d.completeConvertPaper(ctx, in)
			} else {
				_, err = do(ctx, d, func(a *noren.Auth) (struct{}, error) {
					pos, err := d.client().Positions(ctx, a)
					if err != nil {
						return struct{}{}, err
					}
					return struct{}{}, completeConvert(in, pos)
				})
			}
			if err != nil {
				return plan[ConvertOut]{}, err
			}
			if d.paper(ctx) {
				return plan[ConvertOut]{direct: true}, nil
			}
			return plan[ConvertOut]{button: "Convert this position", summary: fmt.Sprintf("Convert a REAL position on Shoonya: %d %s on %s (%s, %s position) from %s to %s?",
				in.Quantity, in.TradingSymbol, in.Exchange, map[string]string{"BUY": "long", "SELL": "short"}[in.Side], in.PositionType, in.FromProduct, in.ToProduct)}, nil
		},
		send: d.convert,
		pending: func(in convertReq, c pendingConfirm) ConvertOut {
			out := convertOut(in, "confirmation_required", guard.Live)
			out.ConfirmURL, out.ConfirmExpires, out.Next = c.URL, c.Expires, c.Next
			return out
		},
		said: func(out ConvertOut) string {
			return fmt.Sprintf("Converted %d %s from %s to %s. The assistant can follow it with get_positions.", out.Quantity, out.TradingSymbol, out.FromProduct, out.ToProduct)
		},
		then: "Then check get_positions.",
	}
}

func convertOut(in convertReq, outcome string, mode guard.Mode) ConvertOut {
	return ConvertOut{TradingSymbol: in.TradingSymbol, FromProduct: in.FromProduct, ToProduct: in.ToProduct,
		Quantity: in.Quantity, Outcome: outcome, Mode: string(mode)}
}

// openPos is what completeConvert needs of one position.
type openPos struct {
	prd      string
	net, day int // net quantity; the day part of it (the rest was carried forward)
}

// completeConvert fills in's omitted fields from the broker's positions
// and checks the conversion against them, so nothing the broker would
// refuse is sent and the person confirms exactly what goes.
func completeConvert(in *convertReq, pos []noren.Position) error {
	var open []openPos
	for _, p := range pos {
		if strings.EqualFold(p.Exch, in.Exchange) && strings.EqualFold(strings.TrimSpace(p.TSym), in.TradingSymbol) {
			open = append(open, openPos{prd: p.Product, net: int(p.NetQty), day: int(p.DayBuyQty) - int(p.DaySellQty)})
		}
	}
	return completeConvertFrom(in, open)
}

func completeConvertFrom(in *convertReq, open []openPos) error {
	to, err := orders.Code("to_product", orders.Products, in.ToProduct)
	if err != nil {
		return err
	}
	var from string
	if in.FromProduct != "" {
		if from, err = orders.Code("from_product", orders.Products, in.FromProduct); err != nil {
			return err
		}
	}
	var p *openPos
	var held []string
	for i := range open {
		if open[i].net == 0 {
			continue
		}
		held = append(held, orders.ProductName(open[i].prd))
		if from == "" && open[i].prd == to {
			continue // what is held as to_product already is not converted
		}
		if from == "" || open[i].prd == from {
			if p != nil {
				return envelope.Invalid("from_product", "%s is held in several products (%s); pass from_product", in.TradingSymbol, strings.Join(held, ", "))
			}
			p = &open[i]
		}
	}
	if p == nil {
		if from == "" && len(held) == 1 {
			return envelope.Invalid("to_product", "the %s position is %s already", in.TradingSymbol, held[0])
		}
		if len(held) > 0 {
			return envelope.Invalid("from_product", "no open %s position in %s; it is held as %s", in.TradingSymbol, orders.ProductName(from), strings.Join(held, ", "))
		}
		return envelope.New(envelope.NotFound, "no open position in %s on %s; get_positions lists them", in.TradingSymbol, in.Exchange)
	}
	if p.prd == to {
		return envelope.Invalid("to_product", "the position is %s already", orders.ProductName(to))
	}
	open1 := max(p.net, -p.net)
	if in.Quantity == 0 {
		in.Quantity = open1
	}
	if in.Quantity > open1 {
		return envelope.Invalid("quantity", "only %d of %s are open in %s; pass quantity ≤ %d", open1, in.TradingSymbol, orders.ProductName(p.prd), open1)
	}
	side := "BUY"
	if p.net < 0 {
		side = "SELL"
	}
	in.PositionType = "DAY" // assumed: a position with a day part converts as DAY
	if p.day == 0 {
		in.PositionType = "CF" // all of it was carried forward from an earlier day
	}
	in.FromProduct, in.ToProduct, in.Side = orders.ProductName(p.prd), orders.ProductName(to), side
	return nil
}

// convert sends ProductConversion once.
func (d *Deps) convert(ctx context.Context, in convertReq, _ bool) (ConvertOut, error) {
	if d.paper(ctx) {
		return d.convertPaper(ctx, in)
	}
	from, err1 := orders.Code("from_product", orders.Products, in.FromProduct)
	to, err2 := orders.Code("to_product", orders.Products, in.ToProduct)
	side, err3 := orders.Code("side", orders.Sides, in.Side)
	if err := firstErr(err1, err2, err3); err != nil || in.Quantity < 1 {
		return ConvertOut{}, envelope.Invalid("from_product", "from_product, to_product, side and quantity are needed; call convert_position without them to take them from get_positions")
	}
	_, err := do(ctx, d, func(a *noren.Auth) (struct{}, error) {
		return struct{}{}, d.client().ProductConversion(ctx, a, noren.Conversion{Exch: strings.ToUpper(in.Exchange), TSym: in.TradingSymbol,
			Qty: in.Quantity, Product: to, PrevProd: from, TranType: side, PosType: strings.ToUpper(in.PositionType)})
	})
	if err != nil {
		e := envelope.From(err)
		if msg, _ := e.Details["broker_message"].(string); strings.Contains(strings.ToLower(msg), "invalid position type") {
			return ConvertOut{}, envelope.New(envelope.InvalidArgument, "Shoonya found no %s %s position of %s to convert (Invalid Position Type); check from_product and quantity against get_positions",
				in.PositionType, in.FromProduct, in.TradingSymbol).WithDetail("broker_message", msg)
		}
		return ConvertOut{}, err
	}
	out := convertOut(in, "converted", guard.Live)
	out.Next = fmt.Sprintf("%d %s moved from %s to %s; get_positions shows both, get_limits the margin now held", in.Quantity, in.TradingSymbol, in.FromProduct, in.ToProduct)
	return out, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// completeConvertPaper is completeConvert on the paper positions.
func (d *Deps) completeConvertPaper(ctx context.Context, in *convertReq) error {
	l, err := d.paperBook().Read(ctx, user(ctx))
	if err != nil {
		return err
	}
	var open []openPos
	for _, p := range l.Positions() {
		if strings.EqualFold(p.Exch, in.Exchange) && strings.EqualFold(p.TSym, in.TradingSymbol) {
			open = append(open, openPos{prd: p.Product, net: p.Net, day: p.Net})
		}
	}
	return completeConvertFrom(in, open)
}

// convertPaper converts a paper position; nothing is sent.
func (d *Deps) convertPaper(ctx context.Context, in convertReq) (ConvertOut, error) {
	from, err1 := orders.Code("from_product", orders.Products, in.FromProduct)
	to, err2 := orders.Code("to_product", orders.Products, in.ToProduct)
	if err := firstErr(err1, err2); err != nil {
		return ConvertOut{}, err
	}
	if err := d.paperBook().Convert(ctx, user(ctx), strings.ToUpper(in.Exchange), in.TradingSymbol, from, to, in.Quantity); err != nil {
		return ConvertOut{}, err
	}
	out := convertOut(in, "converted", guard.Paper)
	out.Next = fmt.Sprintf("%s%d %s moved from %s to %s in the paper book; get_positions shows it", paperNote, in.Quantity, in.TradingSymbol, in.FromProduct, in.ToProduct)
	return out, nil
}
