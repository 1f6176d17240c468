package client

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// symbolTypes are the symbol "type" values this client knows: those in
// chart-img's documented symbol list examples and its fake (fake/data.go),
// plus TradingView's other instrument kinds (assumed; a new value reported
// by the probe is worth a look, not an outage).
var symbolTypes = []string{"stock", "fund", "dr", "bond", "index", "forex", "futures", "crypto", "spot", "swap",
	"cfd", "commodity", "economic", "spread", "structured", "warrant", "right"}

// Shapes are what this client reads from chart-img (doc.chart-img.com;
// testdata/contract/cases.json passes through them, TestContractShapes).
// Errors are {"message"}, v1's {"error"} and {"errors":[…]}, or v2's 422
// array of {value,msg,param,location} (pkg/extract.ChartImg).
var Shapes = []drift.Shape{
	{Route: "list exchanges", Fields: []drift.Field{drift.Req("payload", drift.Array, drift.Null),
		drift.Req("payload[]", drift.String), drift.Opt("updatedAt", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "list symbols", Fields: []drift.Field{drift.Req("payload", drift.Array, drift.Null),
		drift.Req("payload[].symbol", drift.String), drift.Opt("payload[].description", drift.String),
		drift.Opt("payload[].type", drift.String).OneOf(symbolTypes...), drift.Opt("payload[].exchange", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "render chart", Text: true, ErrorCheck: checkErrorBody}, // a PNG or JPEG
	{Route: "store chart", Fields: []drift.Field{drift.Req("url", drift.String), drift.Opt("expire", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "fetch docs", Text: true},
}

// checkErrorBody accepts chart-img's error shapes only.
func checkErrorBody(body []byte) []drift.Finding {
	var obj map[string]json.RawMessage
	var list []map[string]json.RawMessage
	isString := func(raw json.RawMessage) bool { var s string; return json.Unmarshal(raw, &s) == nil }
	switch {
	case json.Unmarshal(body, &list) == nil && len(list) > 0 && isString(list[0]["msg"]):
		return nil
	case json.Unmarshal(body, &obj) == nil && (isString(obj["message"]) || isString(obj["error"])):
		return nil
	case obj != nil && json.Unmarshal(obj["errors"], &list) == nil && len(list) > 0 && (isString(list[0]["msg"]) || isString(list[0]["message"])):
		return nil
	}
	return []drift.Finding{{Kind: drift.ErrorBody, Detail: "the error answer is none of chart-img's shapes ({message}, {error}, {errors:[…]}, [{msg,…}])"}}
}

// Probes read the exchange list, one exchange's symbols (NASDAQ:AAPL's
// listing, a small answer), and the docs page; rendering a chart counts
// against the plan's daily quota, so it runs only with --include-paid;
// storing one writes to chart-img's storage and is never probed.
func (c *Client) Probes() []drift.Probe {
	api := c.api.Sender()
	small := map[string]any{"symbol": "NASDAQ:AAPL", "interval": "1D", "width": 400, "height": 300}
	return []drift.Probe{
		{Upstream: "chart-img", Route: "list exchanges", Path: "/v3/tradingview/exchange/list", Send: api},
		{Upstream: "chart-img", Route: "list symbols", Path: "/v3/tradingview/exchange/NASDAQ", Query: url.Values{"symbol": {"AAPL"}},
			Needs: []string{"list exchanges"}, Send: api, Prepare: func(e map[string][]byte, _ *drift.Call) error {
				var l ExchangeList
				if json.Unmarshal(e["list exchanges"], &l) != nil {
					return errors.New("no exchange list")
				}
				for _, x := range l.Payload {
					if x == "NASDAQ" {
						return nil
					}
				}
				return errors.New("NASDAQ is not listed")
			}},
		{Upstream: "chart-img", Route: "render chart", Method: http.MethodPost, Path: "/v2/tradingview/advanced-chart", JSON: small,
			Paid: true, ReadOnly: "renders an image and keeps nothing; counts against the plan's daily quota", Send: api},
		{Upstream: "chart-img docs", Route: "fetch docs", Path: "", Send: c.docs.Sender()},
	}
}
