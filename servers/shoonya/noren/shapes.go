package noren

import (
	"bytes"
	"encoding/json"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// Shapes are what this client reads from each Noren route (the route name
// is the request's Op): the fields of types.go as NorenApi.py and the
// ShoonyaApi-py README samples send them (testdata/contract/cases.json
// passes through them, TestContractShapes). Figures are strings on the
// wire. trantype is B or S and prctyp LMT, MKT, SL-LMT or SL-MKT
// (NorenApi.py's PriceType and BuyorSell). A {"stat":"Not_Ok","emsg":…}
// answer is Noren's error shape, on any status; any other error body is new.
var Shapes = []drift.Shape{
	norenShape("QuickAuth", drift.Req("susertoken", drift.String)),
	norenShape("PlaceOrder", drift.Req("norenordno", drift.String)),
	norenShape("ModifyOrder", drift.Req("result", drift.String)),
	norenShape("CancelOrder", drift.Req("result", drift.String)),
	norenShape("OrderBook", drift.Req("", drift.Array), drift.Req("[].norenordno", drift.String), drift.Req("[].status", drift.String),
		drift.Req("[].tsym", drift.String), drift.Opt("[].prc", num...), drift.Opt("[].qty", num...),
		drift.Opt("[].trantype", drift.String).OneOf("B", "S"), drift.Opt("[].prctyp", drift.String).OneOf("LMT", "MKT", "SL-LMT", "SL-MKT")),
	norenShape("TradeBook", drift.Req("", drift.Array), drift.Req("[].norenordno", drift.String), drift.Opt("[].flprc", num...),
		drift.Opt("[].trantype", drift.String).OneOf("B", "S")),
	norenShape("PositionBook", drift.Req("", drift.Array), drift.Req("[].tsym", drift.String), drift.Opt("[].netqty", num...)),
	norenShape("Holdings", drift.Req("", drift.Array), drift.Opt("[].exch_tsym", drift.Array), drift.Opt("[].holdqty", num...)),
	norenShape("Limits", drift.Req("cash", num...)),
	norenShape("SearchScrip", drift.Req("values", drift.Array), drift.Req("values[].tsym", drift.String), drift.Req("values[].token", drift.String)),
	norenShape("GetQuotes", drift.Req("tsym", drift.String), drift.Opt("lp", num...)),
	norenShape("GetOptionChain", drift.Req("values", drift.Array), drift.Req("values[].tsym", drift.String),
		drift.Opt("values[].optt", drift.String).OneOf("CE", "PE", "XX")),
	norenShape("TPSeries", drift.Req("", drift.Array), drift.Req("[].time", drift.String), drift.Req("[].intc", num...)),
	norenShape("EODChartData", drift.Req("", drift.Array)),
	norenShape("GetPendingGTTOrder", drift.Req("", drift.Array), drift.Req("[].al_id", drift.String)), // gtt.go: fields assumed
	norenShape("PlaceGTTOrder", drift.Req("Al_id", drift.String)),
	// The trader's day (margin.go, history.go).
	norenShape("GetOrderMargin", drift.Req("cash", num...), drift.Opt("ordermargin", num...), drift.Opt("marginused", num...)),
	norenShape("GetBasketMargin", drift.Opt("marginused", num...), drift.Opt("marginusedtrade", num...)),
	norenShape("SingleOrdHist", drift.Req("", drift.Array), drift.Req("[].norenordno", drift.String), drift.Req("[].status", drift.String),
		drift.Opt("[].rpt", drift.String)),
	norenShape("GetOptionGreek", drift.Opt("cal_delta", num...), drift.Opt("put_delta", num...), drift.Opt("cal_vego", num...)),
	norenShape("MWList", drift.Req("values", drift.Array)),
	norenShape("MarketWatch", drift.Req("values", drift.Array), drift.Req("values[].tsym", drift.String), drift.Req("values[].token", drift.String)),
	norenShape("AddMultiScripsToMW", drift.Req("stat", drift.String)),
	norenShape("DeleteMultiMWScrips", drift.Req("stat", drift.String)),
	// Alerts (alerts.go; assumed shapes, no public sample): the probe reads
	// GetPendingAlert, so a live answer that differs shows as drift.
	norenShape("SetAlert", drift.Req("al_id", drift.String)),
	norenShape("ModifyAlert", drift.Opt("al_id", drift.String)),
	norenShape("CancelAlert", drift.Opt("al_id", drift.String)),
	norenShape("GetPendingAlert", drift.Req("", drift.Array), drift.Req("[].al_id", drift.String), drift.Opt("[].ai_t", drift.String), drift.Opt("[].d", num...)),
}

var num = []string{drift.String, drift.Number}

// norenShape checks an Ok answer against fields; a Not_Ok answer (Noren
// sends its errors with 200 too) is the known error shape.
func norenShape(route string, fields ...drift.Field) drift.Shape {
	ok := drift.Shape{Route: route, Fields: fields}
	return drift.Shape{Route: route, ErrorCheck: norenErrorBody, Check: func(body []byte) []drift.Finding {
		if notOK(body) {
			return nil
		}
		return ok.CheckBody(body)
	}}
}

func notOK(body []byte) bool {
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		return false
	}
	var st struct {
		Stat string `json:"stat"`
		Emsg string `json:"emsg"`
	}
	return json.Unmarshal(body, &st) == nil && st.Stat == "Not_Ok"
}

func norenErrorBody(body []byte) []drift.Finding {
	if notOK(body) {
		return nil
	}
	return []drift.Finding{{Kind: drift.ErrorBody, Detail: `the error answer is not Noren's {"stat":"Not_Ok","emsg":…}`}}
}
