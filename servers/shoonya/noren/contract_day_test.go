package noren

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// dayContract is the recorded pairs of the trader's-day routes (margins,
// one order's history, watchlists, Greeks), replayed as contract is.
var dayContract = servetest.Contract{File: "testdata/contract/day.json", MinCases: 4, DecodeBody: formBody, Shapes: Shapes, Call: contract.Call}

func TestDayContract(t *testing.T) {
	dayContract.Run(t)
	for _, tc := range dayContract.Cases(t) {
		for _, ex := range tc.Exchanges {
			shapeOf(t, path.Base(ex.Request.Path))
		}
	}
	dayContract.RunShapes(t)
}

// dayArgs are the arguments of the trader's-day calls.
type dayArgs struct {
	OrderNo   string             `json:"order_no"`
	Exch      string             `json:"exch"`
	TSym      string             `json:"tsym"`
	Qty       int                `json:"qty"`
	Price     float64            `json:"price"`
	Prd       string             `json:"prd"`
	TranType  string             `json:"trantype"`
	PriceType string             `json:"prctyp"`
	Legs      []MarginLeg        `json:"legs"`
	WLName    string             `json:"wlname"`
	Scrips    []string           `json:"scrips"`
	Greek     OptionGreekRequest `json:"greek"`
}

// dayInvoke calls the trader's-day client methods (invoke's other calls).
func dayInvoke(ctx context.Context, c *Client, a *Auth, call string, args json.RawMessage) (any, error) {
	var x dayArgs
	if err := json.Unmarshal(args, &x); err != nil {
		return nil, fmt.Errorf("args of %s: %w", call, err)
	}
	switch call {
	case "SingleOrdHist":
		return c.SingleOrdHist(ctx, a, x.OrderNo)
	case "GetOrderMargin":
		return c.GetOrderMargin(ctx, a, MarginLeg{Exch: x.Exch, TSym: x.TSym, Qty: x.Qty, Price: x.Price, Product: x.Prd, TranType: x.TranType, PriceType: x.PriceType})
	case "GetBasketMargin":
		return c.GetBasketMargin(ctx, a, x.Legs)
	case "GetOptionGreek":
		return c.GetOptionGreek(ctx, a, x.Greek)
	case "MWList":
		return c.MWList(ctx, a)
	case "MarketWatch":
		return c.MarketWatch(ctx, a, x.WLName)
	case "AddMultiScripsToMW", "DeleteMultiMWScrips":
		return struct{}{}, c.EditMarketWatch(ctx, a, x.WLName, x.Scrips, call == "DeleteMultiMWScrips")
	}
	return nil, fmt.Errorf("unknown call %q", call)
}
