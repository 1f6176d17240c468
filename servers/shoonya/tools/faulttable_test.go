package tools_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestFaultTable runs every shoonya read tool against a Noren whose answers
// fail, are cut or emptied, or carry its documented refusals: each answers
// an error or says its result is not whole; "no data" alone is empty.
func TestFaultTable(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{})
	rest := strings.TrimPrefix(e.urls.LegacyREST, e.urls.Base)
	connect := func(t testing.TB, base string) *servetest.Conn {
		t.Setenv("SHOONYA_REST_URL", base+rest)
		return servetest.New(t, app())
	}
	login := func(t testing.TB, c *servetest.Conn) {
		out := servetest.Decode[tools.ConnectOut](t, c.Call(t, "connect_shoonya_broker", map[string]any{}))
		if out.Status != "connected" {
			t.Fatalf("connect: %+v", out)
		}
	}
	day := fake.LastSession(clock.MustFromEnv().Now()).Format("2006-01-02")
	seq := 0
	lists := []string{"get_order_book", "get_trade_book", "get_positions", "get_holdings", "search_scrip", "get_time_price_series", "get_gtts", "get_watchlists", "list_price_alerts"}
	nothing := func(status int) servetest.Refusal {
		return servetest.Refusal{Name: fmt.Sprintf("%d no data", status), Status: status, ContentType: "application/json",
			Body: `{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`, Source: "ShoonyaApi-py README, PositionBook/GetQuotes failure samples",
			NothingFor: lists}
	}
	servetest.FaultTable{
		Upstream: e.urls.Base,
		Connect:  connect,
		Setup:    login,
		Deadline: 45 * time.Second,
		Exempt: map[string]string{
			"connect_shoonya_broker":   "the login, not a read: TestLoginErrorsLeadSomewhere covers each of its refusals",
			"subscribe_market_feeds":   "speaks the websocket, which the proxy passes through: TestFeedSurvivesDrop covers a dropped socket",
			"unsubscribe_market_feeds": "speaks the websocket, which the proxy passes through",
		},
		Rows: []servetest.FaultRow{
			{Tool: "get_order_book"},
			{Tool: "get_trade_book"},
			{Tool: "get_positions"},
			{Tool: "get_holdings"},
			{Tool: "get_limits", Single: true},
			{Tool: "search_scrip", Prepare: func(testing.TB, *servetest.Conn) map[string]any {
				seq++ // a new text each call: a repeat is answered from the cache
				return map[string]any{"exchange": "NSE", "search_text": fmt.Sprintf("TCS %d", seq)}
			}},
			{Tool: "get_quotes", Single: true, Args: map[string]any{"exchange": "NSE", "token": "1594"}},
			{Tool: "get_option_chain", Single: true, Args: map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}},
			{Tool: "get_time_price_series", Args: map[string]any{"exchange": "NSE", "token": "1594", "interval": "5", "from": day}},
			{Tool: "get_gtts"},
			// The trader's day.
			{Tool: "get_order_margin", Single: true, Args: marginArgs},
			{Tool: "get_basket_margin", Args: basketArgs},
			{Tool: "get_order_history", Prepare: func(t testing.TB, c *servetest.Conn) map[string]any {
				out := servetest.Decode[tools.PlaceOut](t, c.Call(t, "place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ",
					"side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 1400, "idempotency_key": "faulttable-hist"}))
				return map[string]any{"order_id": out.OrderID}
			}},
			{Tool: "get_quotes_batch", Args: map[string]any{"instruments": []any{"NSE|1594", "NSE|2885"}}},
			{Tool: "get_watchlists", Args: map[string]any{"name": "1"}},
			{Tool: "get_option_greeks", Single: true, Prepare: func(t testing.TB, c *servetest.Conn) map[string]any {
				ch := servetest.Decode[tools.ChainOut](t, c.Call(t, "get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}))
				return map[string]any{"exchange": "NFO", "trading_symbol": ch.Rows[0].Call.TradingSymbol}
			}},
			{Tool: "list_price_alerts"},
		},
		Refusals: []servetest.Refusal{
			{Name: "invalid input", Status: 200, ContentType: "application/json",
				Body: `{"stat":"Not_Ok","emsg":"Invalid Input : jData is not valid json object"}`, Source: "marketcalls/openalgo broker/shoonya api/data.py"},
			{Name: "session expired", Status: 200, ContentType: "application/json",
				Body: `{"stat":"Not_Ok","emsg":"Session Expired :  Invalid Session Key"}`, Source: "ShoonyaApi-py README"},
			nothing(200),
		},
	}.Run(t)
}
