package tools_test

import (
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

var fastTimeouts = map[string]string{"SHOONYA_TIMEOUT": "700ms", "SHOONYA_ORDER_TIMEOUT": "900ms", "SHOONYA_MAX_ORDERS_PER_MINUTE": "0", "SHOONYA_REQUESTS_PER_MINUTE": "0", "SHOONYA_REQUESTS_PER_SECOND": "0"}

// toolCase is one tool with valid arguments and the Noren route it calls.
type toolCase struct {
	tool  string
	route string
	args  func(e *env) map[string]any
	write bool
	login bool // any clear error but internal is right (a lost login answer is retryable)
}

func readCase(tool, route string, args map[string]any) toolCase {
	return toolCase{tool: tool, route: route, args: func(*env) map[string]any { return args }}
}

func toolCases() []toolCase {
	return []toolCase{
		{tool: "connect_shoonya_broker", route: "GenAcsTok", login: true, args: func(e *env) map[string]any {
			code, err := e.fake.IssueAuthCode(e.uid)
			if err != nil {
				e.t.Fatal(err)
			}
			return map[string]any{"auth_code": code}
		}},
		readCase("get_order_book", "OrderBook", nil),
		readCase("get_trade_book", "TradeBook", nil),
		readCase("get_positions", "PositionBook", nil),
		readCase("get_holdings", "Holdings", nil),
		readCase("get_limits", "Limits", nil),
		// A new text each call: search_scrip answers a repeat from its cache
		// (scripcache.go), and every case here must reach Noren.
		{tool: "search_scrip", route: "SearchScrip", args: func(*env) map[string]any {
			searchSeq++
			return map[string]any{"exchange": "NSE", "search_text": fmt.Sprintf("INFY %d", searchSeq)}
		}},
		readCase("get_quotes", "GetQuotes", map[string]any{"exchange": "NSE", "token": "1594"}),
		readCase("get_option_chain", "GetOptionChain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}),
		readCase("get_time_price_series", "TPSeries", map[string]any{"exchange": "NSE", "token": "1594", "interval": "5",
			"from": fake.LastSession(clock.MustFromEnv().Now()).Format("2006-01-02")}),
		readCase("get_order_margin", "GetOrderMargin", marginArgs),
		readCase("get_basket_margin", "GetBasketMargin", basketArgs),
		readCase("get_watchlists", "MWList", map[string]any{}),
		readCase("get_watchlists", "MarketWatch", map[string]any{"name": "1"}),
		{tool: "get_option_greeks", route: "GetQuotes", args: func(e *env) map[string]any { return map[string]any{"exchange": "NFO", "trading_symbol": e.nearCall()} }},
		readCase("get_quotes_batch", "GetQuotes", map[string]any{"instruments": []any{"NSE|1594", "NSE|2885"}}),
		{tool: "get_order_history", route: "SingleOrdHist", args: func(e *env) map[string]any { return map[string]any{"order_id": e.openOrder()} }},
		{tool: "modify_order", route: "ModifyOrder", write: true, args: func(e *env) map[string]any {
			return map[string]any{"order_id": e.openOrder(), "exchange": "NSE", "trading_symbol": "INFY-EQ", "quantity": 2, "order_type": "LIMIT", "price": 1400}
		}},
		{tool: "cancel_order", route: "CancelOrder", write: true, args: func(e *env) map[string]any {
			return map[string]any{"order_id": e.openOrder()}
		}},
	}
}

var orderSeq, searchSeq int

// nearCall is a NIFTY call the fake lists (its symbols follow the clock).
func (e *env) nearCall() string {
	e.t.Helper()
	c := servetest.Decode[tools.ChainOut](e.t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}))
	for _, r := range c.Rows {
		if r.Call != nil {
			return r.Call.TradingSymbol
		}
	}
	e.t.Fatalf("no call in %+v", c)
	return ""
}

// openOrder places an open LIMIT order (below the market) without faults.
func (e *env) openOrder() string {
	e.t.Helper()
	orderSeq++
	res := e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 1,
		"order_type": "LIMIT", "price": 1400, "idempotency_key": fmt.Sprintf("open-%d", orderSeq)})
	return servetest.Decode[tools.PlaceOut](e.t, res).OrderID
}

type faultCase struct {
	name  string
	fault fake.Fault
	read  []envelope.Code // acceptable codes for reads; nil = success
	write []envelope.Code // for modify/cancel
}

func faultCases() []faultCase {
	return []faultCase{
		{"latency", fake.Fault{Kind: fake.FaultLatency, Latency: 150 * time.Millisecond}, nil, nil},
		{"timeout_after_accept", fake.Fault{Kind: fake.FaultTimeout}, []envelope.Code{envelope.Timeout}, []envelope.Code{envelope.OutcomeUnknown}},
		{"connection_closed", fake.Fault{Kind: fake.FaultCloseConn}, []envelope.Code{envelope.UpstreamUnavailable, envelope.UpstreamError, envelope.Timeout}, []envelope.Code{envelope.OutcomeUnknown}},
		{"http_502", fake.Fault{Kind: fake.FaultStatus, Status: 502}, []envelope.Code{envelope.UpstreamUnavailable}, []envelope.Code{envelope.OutcomeUnknown}},
		{"http_500", fake.Fault{Kind: fake.FaultStatus, Status: 500}, []envelope.Code{envelope.UpstreamError}, []envelope.Code{envelope.OutcomeUnknown}},
		{"malformed_json", fake.Fault{Kind: fake.FaultMalformed}, []envelope.Code{envelope.UpstreamError}, []envelope.Code{envelope.OutcomeUnknown}},
		{"truncated_body", fake.Fault{Kind: fake.FaultTruncated}, []envelope.Code{envelope.UpstreamError, envelope.Timeout}, []envelope.Code{envelope.OutcomeUnknown}},
		// A 429 on every retry is reported as rate_limited, or as timeout when the
		// deadline ends during a retry (loaded machines).
		{"rate_limited", fake.Fault{Kind: fake.FaultRateLimit}, []envelope.Code{envelope.RateLimited, envelope.Timeout}, []envelope.Code{envelope.RateLimited}},
		{"session_expired", fake.Fault{Kind: fake.FaultSessionExpired}, []envelope.Code{envelope.Unauthenticated}, []envelope.Code{envelope.Unauthenticated}},
	}
}

func codeIn(c envelope.Code, set []envelope.Code) bool {
	for _, s := range set {
		if s == c {
			return true
		}
	}
	return false
}

// TestFaultMatrix: every fault on every tool gives a clear envelope error
// (or success where the fault is harmless) within the deadline.
func TestFaultMatrix(t *testing.T) {
	for _, era := range eras {
		if testing.Short() && era == noren.Legacy {
			continue // -short: one era
		}
		t.Run(string(era), func(t *testing.T) { faultMatrix(t, era) })
	}
}

func faultMatrix(t *testing.T, era noren.Era) {
	e := newEnv(t, era, envOpt{extra: fastTimeouts, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}}})
	e.connect()
	loginRoute := map[noren.Era]string{noren.Legacy: "QuickAuth", noren.OAuth: "GenAcsTok"}[era]
	for _, tc := range toolCases() {
		if tc.login {
			tc.route = loginRoute
			if era == noren.Legacy {
				tc.args = func(*env) map[string]any { return map[string]any{} }
			}
		}
		for _, fc := range faultCases() {
			t.Run(tc.tool+"/"+fc.name, func(t *testing.T) {
				e.t = t
				args := tc.args(e)
				e.fake.SetFault(tc.route, fc.fault)
				defer e.fake.ClearFaults()
				res := e.callWithin(5*time.Second, tc.tool, args) // deadlines are 0.7-0.9 s; slack for -race on a loaded box
				want := fc.read
				if tc.write {
					want = fc.write
				}
				if tc.login && want != nil {
					if body := servetest.ErrorBody(t, res); body.Code == envelope.Internal || body.Message == "" {
						t.Fatalf("login fault: %+v", body)
					} else {
						t.Logf("%s: %s", body.Code, body.Message)
					}
					e.fake.ClearFaults()
					e.connect()
					return
				}
				if want == nil {
					if res.IsError {
						t.Fatalf("want success, got %s", servetest.Text(res))
					}
					return
				}
				body := servetest.ErrorBody(t, res)
				if !codeIn(body.Code, want) || body.Message == "" {
					t.Fatalf("want one of %v, got %+v", want, body)
				}
				if body.Code == envelope.Unauthenticated {
					e.fake.ClearFaults()
					e.connect() // the session is gone: log in again for the next case
				}
			})
		}
	}
}

// TestPlaceOrderFaultsOneOrderPerKey: under every fault, and then MCP-side
// re-sends of the same call (sequential and concurrent), the fake's ledger
// holds at most one order per key, and exactly one once the fault clears.
func TestPlaceOrderFaultsOneOrderPerKey(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{extra: fastTimeouts, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}}})
			e.connect()
			for i, fc := range faultCases() {
				t.Run(fc.name, func(t *testing.T) {
					e.t = t
					key := fmt.Sprintf("k-%s-%d", era, i)
					args := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1,
						"order_type": "LIMIT", "price": 700, "idempotency_key": key}
					e.fake.SetFault("PlaceOrder", fc.fault)
					res := e.callWithin(6*time.Second, "place_order", args)
					e.fake.ClearFaults()
					if res.IsError {
						body := servetest.ErrorBody(t, res)
						if !codeIn(body.Code, []envelope.Code{envelope.OutcomeUnknown, envelope.RateLimited, envelope.Unauthenticated}) {
							t.Fatalf("unexpected error %+v", body)
						}
						if body.Code == envelope.Unauthenticated {
							e.connect()
						}
					} else if out := servetest.Decode[tools.PlaceOut](t, res); out.OrderID == "" {
						t.Fatalf("no order id: %+v", out)
					}
					if n := e.fake.OrdersWithRemarks(key); n > 1 {
						t.Fatalf("ledger holds %d orders for key %s after the fault", n, key)
					}
					// The MCP client re-sends: once, then five at once.
					e.call("place_order", args)
					var wg sync.WaitGroup
					for range 5 {
						wg.Add(1)
						go func() { defer wg.Done(); _, _ = e.conn.CallCtx(t.Context(), "place_order", args) }()
					}
					wg.Wait()
					if n := e.fake.OrdersWithRemarks(key); n != 1 {
						t.Fatalf("ledger holds %d orders for key %s, want exactly 1", n, key)
					}
				})
			}
		})
	}
}

// TestSessionExpiryRelogin: legacy logs in again by itself (TOTP from env);
// OAuth cannot and says how to reconnect.
func TestSessionExpiryRelogin(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{})
			e.connect()
			e.fake.ExpireSessions()
			res := e.call("get_limits", nil)
			if era == noren.Legacy {
				if res.IsError {
					t.Fatalf("legacy should re-login: %s", servetest.Text(res))
				}
				return
			}
			body := servetest.ErrorBody(t, res)
			if body.Code != envelope.Unauthenticated || !contains(body.Message, "connect_shoonya_broker") {
				t.Fatalf("oauth expiry: %+v", body)
			}
		})
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
