package tools_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// maxListRatio is the fleet's result budget for list-shaped tools: what the
// model reads is at most this share of the raw upstream answer.
const maxListRatio = 0.30

// sizingProxy forwards REST calls to the fake and remembers the size of the
// last answer per Noren route.
type sizingProxy struct {
	url    string
	target atomic.Pointer[http.Handler]
	mu     sync.Mutex
	last   map[string]int
}

func newSizingProxy(t *testing.T) *sizingProxy {
	p := &sizingProxy{last: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		(*p.target.Load()).ServeHTTP(rec, r)
		p.mu.Lock()
		p.last[path.Base(r.URL.Path)] = rec.Body.Len()
		p.mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

func (p *sizingProxy) size(route string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last[route]
}

// TestListResultRatio fills the fake's books with a few orders, then measures
// each list tool's result (the text block the model reads and the structured
// content) against the raw bytes of the Noren answer behind it.
func TestListResultRatio(t *testing.T) {
	proxy := newSizingProxy(t)
	e := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{
		"SHOONYA_REST_URL": proxy.url + fake.PathOAuthREST, "SHOONYA_MAX_ORDERS_PER_MINUTE": "0"}})
	h := e.fake.Handler()
	proxy.target.Store(&h)
	e.connect()
	for i, tok := range []string{"2885", "1594", "11536"} {
		q := servetest.Decode[tools.QuoteOut](t, e.call("get_quotes", map[string]any{"exchange": "NSE", "token": tok}))
		for _, side := range []string{"BUY", "SELL"} {
			res := e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": q.TradingSymbol, "side": side,
				"quantity": i + 1, "order_type": "LIMIT", "price": q.LastPrice, "product": "INTRADAY"})
			if res.IsError {
				t.Fatalf("place %s %s: %+v", side, q.TradingSymbol, res.Content)
			}
		}
	}
	cases := []struct {
		tool, route string
		args        map[string]any
		ceiling     float64 // 0: maxListRatio
		quotes      int     // GetQuotes answers behind the result too
	}{
		// The three books are tables (cols once, rows of values): an order
		// keeps id, exchange (modify_order takes it), symbol, side,
		// quantities, prices, status and reject reason; as objects it was 35%.
		{"get_order_book", "OrderBook", nil, 0, 0},
		{"get_trade_book", "TradeBook", nil, 0, 0},
		// Positions add what Noren does not send: each row's P&L and its
		// percentage, and the totals (35% with them, 30% without).
		{"get_positions", "PositionBook", nil, 0.36, 0},
		// Two holdings: exchange, symbol, quantity, sellable and average
		// price are the decision; 36% as objects (Noren's rows are short).
		// Each is valued from its own quote (last price, value, P&L), so
		// the two GetQuotes answers are upstream bytes of the result too.
		{"get_holdings", "Holdings", nil, 0, 2},
		// Noren's search rows are already minimal (exch, tsym, token, pp, ti,
		// ls, …); the result drops the exchange echo and is a table (cols
		// once, rows of values): 71% as objects.
		{"search_scrip", "SearchScrip", map[string]any{"exchange": "NFO", "search_text": "NIFTY"}, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res := e.call(tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%+v", res.Content)
			}
			raw := proxy.size(tc.route) + tc.quotes*proxy.size("GetQuotes")
			text := len(res.Content[0].(mcp.TextContent).Text)
			sc, _ := json.Marshal(res.StructuredContent)
			ratio := float64(max(text, len(sc))) / float64(raw)
			t.Logf("%s: upstream %d B, text %d B, structured %d B: %.0f%%", tc.tool, raw, text, len(sc), 100*ratio)
			if raw < 200 {
				t.Fatalf("%s: the fake answered only %d B: the books were not filled", tc.route, raw)
			}
			ceiling := maxListRatio
			if tc.ceiling > 0 {
				ceiling = tc.ceiling
			}
			if ratio > ceiling {
				t.Errorf("%s: result is %.0f%% of the upstream answer, budget %.0f%%", tc.tool, 100*ratio, 100*ceiling)
			}
		})
	}
}
