package tools_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
)

// refusalTexts are Noren's documented Not_Ok answers, each with its source.
// None of them means "nothing there".
var refusalTexts = []struct{ emsg, source string }{
	{fake.EmsgHoldingsMissing, "ShoonyaApi-py README, Holdings failure sample"},
	{fake.EmsgJDataInvalid, "marketcalls/openalgo broker/shoonya/api/data.py, seen live"},
	{fake.EmsgJDataMissing, "ShoonyaApi-py README, GetOptionGreek failure sample"},
	{fake.EmsgInvalidInput, "ShoonyaApi-py README, PlaceOrder failure sample"},
	{fake.EmsgServerTimeout, "ShoonyaApi-py README, Logout/Limits failure samples"},
	{fake.EmsgNotEnabledAPI, "Shoonya-Dev/ShoonyaApi-py#13"},
	{`Error Occurred : 7 "unpublished"`, "assumed: any text Noren has not published yet"},
}

// readTool is a read tool with valid arguments, the route it reads and
// whether Noren's "no data" on that route is an empty result.
type readTool struct {
	tool, route string
	args        func() map[string]any
	list        bool
}

func readTools() []readTool {
	day := fake.LastSession(clock.MustFromEnv().Now()).Format("2006-01-02")
	fixed := func(m map[string]any) func() map[string]any { return func() map[string]any { return m } }
	return []readTool{
		{"get_order_book", "OrderBook", fixed(nil), true},
		{"get_trade_book", "TradeBook", fixed(nil), true},
		{"get_positions", "PositionBook", fixed(nil), true},
		{"get_holdings", "Holdings", fixed(nil), true},
		{"get_limits", "Limits", fixed(nil), false},
		// A new text each call: search_scrip answers a repeat from its cache.
		{"search_scrip", "SearchScrip", func() map[string]any {
			searchSeq++
			return map[string]any{"exchange": "NSE", "search_text": fmt.Sprintf("TCS %d", searchSeq)}
		}, true},
		{"get_quotes", "GetQuotes", fixed(map[string]any{"exchange": "NSE", "token": "1594"}), false},
		{"get_option_chain", "GetOptionChain", fixed(map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}), false},
		{"get_order_margin", "GetOrderMargin", fixed(marginArgs), false},
		{"get_basket_margin", "GetBasketMargin", fixed(basketArgs), false},
		{"get_watchlists", "MWList", fixed(map[string]any{}), true},
		{"get_watchlists", "MarketWatch", fixed(map[string]any{"name": "1"}), true},
		{"get_quotes_batch", "GetQuotes", fixed(map[string]any{"instruments": []any{"NSE|1594"}}), false},
		{"get_order_history", "SingleOrdHist", fixed(map[string]any{"order_id": "24120700000001"}), false},
		{"get_time_price_series", "TPSeries", fixed(map[string]any{"exchange": "NSE", "token": "1594", "interval": "5", "from": day}), true},
		{"get_time_price_series", "EODChartData", fixed(map[string]any{"exchange": "NSE", "token": "1594", "trading_symbol": "INFY-EQ",
			"interval": "day", "from": "2026-01-01"}), true},
	}
}

// TestRefusalIsAnError: every documented Not_Ok answer to every read tool is
// an isError result carrying the broker's text in details.broker_message,
// never an empty list; only "no data" is empty, and says so (coverage.empty).
func TestRefusalIsAnError(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	for _, rt := range readTools() {
		for _, r := range refusalTexts {
			t.Run(rt.tool+"/"+rt.route+"/"+r.emsg, func(t *testing.T) {
				e.t = t
				e.fake.SetFault(rt.route, fake.Fault{Kind: fake.FaultRefuse, Body: r.emsg})
				defer e.fake.ClearFaults()
				res := e.call(rt.tool, rt.args())
				if !res.IsError {
					t.Fatalf("%q (%s) read as a result: %s", r.emsg, r.source, servetest.Text(res))
				}
				body := servetest.ErrorBody(t, res)
				// The broker's text as extract.Clip keeps it (runs of spaces folded).
				if got, _ := body.Details["broker_message"].(string); got != strings.Join(strings.Fields(r.emsg), " ") ||
					body.Message == "" || body.Code == envelope.Internal {
					t.Fatalf("%q: %+v", r.emsg, body)
				}
			})
		}
		if !rt.list {
			continue
		}
		nodata := fake.EmsgNoData
		if rt.route == "SearchScrip" {
			nodata = fake.EmsgSearchNoData
		}
		t.Run(rt.tool+"/"+rt.route+"/no_data", func(t *testing.T) {
			e.t = t
			e.fake.SetFault(rt.route, fake.Fault{Kind: fake.FaultRefuse, Body: nodata})
			defer e.fake.ClearFaults()
			res := e.call(rt.tool, rt.args())
			if res.IsError {
				t.Fatalf("no data is empty, not an error: %s", servetest.Text(res))
			}
			var cov envelope.Coverage
			if err := json.Unmarshal([]byte(servetest.Text(res)), &cov); err != nil {
				t.Fatal(err)
			}
			if !cov.Complete || cov.Empty == "" {
				t.Fatalf("empty result does not say so: %s", servetest.Text(res))
			}
		})
	}
}
