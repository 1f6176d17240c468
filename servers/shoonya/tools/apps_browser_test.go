package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/apps/apptest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/apps"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

func appEnv(t *testing.T) *env {
	t.Helper()
	// Less cash than the demo account, so an order within the pre-trade limits
	// can still be rejected by the broker for funds.
	acct := fake.DemoAccount()
	acct.Cash = 200_000
	e := newEnv(t, noren.Legacy, envOpt{account: &acct, clients: []client.ClientOption{client.WithClientCapabilities(mcpapps.ClientCapabilities())}})
	e.connect()
	return e
}

func viewHTML(t *testing.T, e *env, uri string) string {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := e.conn.Client.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok || tc.MIMEType != mcpapps.MIMEType {
		t.Fatalf("resources/read %s: %+v", uri, res.Contents)
	}
	if err := apptest.SelfContained(tc.Text); err != nil {
		t.Fatal(err)
	}
	return tc.Text
}

func TestAppLinksAndModelOnlyOrders(t *testing.T) {
	e := appEnv(t)
	got := map[string]string{}
	for _, tl := range e.conn.Tools(t) {
		b, _ := json.Marshal(tl.Meta)
		got[tl.Name] = string(b)
	}
	for tool, uri := range map[string]string{"get_time_price_series": apps.CandlesURI, "get_positions": apps.PortfolioURI, "get_order_book": apps.PortfolioURI} {
		if !strings.Contains(got[tool], `"resourceUri":"`+uri+`"`) || !strings.Contains(got[tool], `"ui/resourceUri":"`+uri+`"`) {
			t.Errorf("%s _meta = %s, want links to %s", tool, got[tool], uri)
		}
	}
	for _, tool := range []string{"place_order", "modify_order", "cancel_order"} {
		if got[tool] != `{"ui":{"visibility":["model"]}}` {
			t.Errorf("%s _meta = %s, want model-only visibility", tool, got[tool])
		}
	}
	plain := newEnv(t, noren.Legacy, envOpt{})
	for _, tl := range plain.conn.Tools(t) {
		if tl.Meta != nil {
			t.Errorf("client without the extension sees _meta on %s", tl.Name)
		}
	}
}

func near2(s string, want float64) bool {
	got, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
	return err == nil && math.Abs(got-want) <= 0.005+1e-9
}

func TestAppViewsInBrowser(t *testing.T) {
	browser := apptest.Browser(t)
	e := appEnv(t)
	// A filled market order makes a position; a limit far below the market stays
	// open; one far beyond the account's cash is accepted, then REJECTED with
	// rejreason "Insufficient funds" (ShoonyaApi-py README OrderBook sample; fake rejectReason).
	for i, o := range []map[string]any{
		{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 2, "order_type": "MARKET"},
		{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 1400},
		{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 300, "order_type": "LIMIT", "price": 1400},
	} {
		o["idempotency_key"] = fmt.Sprintf("apps-%d", i)
		if i == 2 {
			// place_order would refuse it for margin before sending; with the
			// margin route down it goes, and the broker rejects it.
			e.fake.SetFault("GetOrderMargin", fake.Fault{Kind: fake.FaultStatus, Status: 404, Times: 1})
		}
		if res := e.call("place_order", o); res.IsError {
			t.Fatalf("place_order: %s", servetest.Text(res))
		}
	}
	candles, portfolio := viewHTML(t, e, apps.CandlesURI), viewHTML(t, e, apps.PortfolioURI)
	cases := []struct {
		name, html, tool, shot string
		args                   map[string]any
		check                  func(t *testing.T, v *apptest.View, res *mcp.CallToolResult)
	}{
		{"candles", candles, "get_time_price_series", "candles", map[string]any{"exchange": "NSE", "token": "1594", "interval": "5",
			"from": fake.LastSession(clock.MustFromEnv().Now()).Format("2006-01-02")},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				out := servetest.Decode[tools.SeriesOut](t, res)
				if len(out.Candles) == 0 {
					t.Fatal("the fake returned no candles")
				}
				if n := apptest.Eval[int](t, v, `document.querySelectorAll("g.candle").length`); n != len(out.Candles) {
					t.Errorf("%d candles drawn, tool returned %d", n, len(out.Candles))
				}
				last := out.Candles[len(out.Candles)-1]
				if s := apptest.Eval[string](t, v, `document.querySelector('[data-k="close"] dd').textContent`); !near2(s, last.Close) {
					t.Errorf("close shows %s, tool says %v", s, last.Close)
				}
			}},
		{"positions", portfolio, "get_positions", "portfolio-positions", map[string]any{},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				out := servetest.Decode[tools.PositionsOut](t, res)
				if len(out.Positions) == 0 {
					t.Fatal("no positions after a filled market order")
				}
				if n := apptest.Eval[int](t, v, `document.querySelectorAll("tr.position").length`); n != len(out.Positions) {
					t.Errorf("%d position rows, tool returned %d", n, len(out.Positions))
				}
				if s := apptest.Eval[string](t, v, `document.querySelector('[data-k="total_unrealised_pnl"] dd').textContent`); !near2(s, out.UnrealisedPnL) {
					t.Errorf("unrealised P&L shows %s, tool says %v", s, out.UnrealisedPnL)
				}
				if s := apptest.Eval[string](t, v, `document.querySelector('[data-k="total_realised_pnl"] dd').textContent`); !near2(s, out.RealisedPnL) {
					t.Errorf("realised P&L shows %s, tool says %v", s, out.RealisedPnL)
				}
				for i, p := range out.Positions {
					row := fmt.Sprintf(`document.querySelectorAll("tr.position")[%d]`, i)
					if sym := apptest.Eval[string](t, v, row+`.dataset.symbol`); sym != p.TradingSymbol {
						t.Errorf("row %d is %s, tool says %s", i, sym, p.TradingSymbol)
					}
					if s := apptest.Eval[string](t, v, row+`.querySelector("td.pnl").textContent`); !near2(s, p.RealisedPnL+p.UnrealisedPnL) {
						t.Errorf("%s P&L shows %s, tool says %v + %v", p.TradingSymbol, s, p.RealisedPnL, p.UnrealisedPnL)
					}
				}
			}},
		{"orders", portfolio, "get_order_book", "portfolio-orders", map[string]any{},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				out := servetest.Decode[tools.OrderBookOut](t, res).List()
				rejected := 0
				for _, o := range out {
					s := apptest.Eval[string](t, v, `(document.querySelector('tr[data-order="`+o.OrderID+`"] td.status')||{}).textContent||""`)
					if s != o.Status {
						t.Errorf("order %s shows status %q, tool says %q", o.OrderID, s, o.Status)
					}
					r := apptest.Eval[string](t, v, `(document.querySelector('tr[data-order="`+o.OrderID+`"] .reject')||{}).textContent||""`)
					if r != o.RejectReason {
						t.Errorf("order %s shows reject reason %q, tool says %q", o.OrderID, r, o.RejectReason)
					}
					// The market order has price 0 (Noren's prc): the view says MKT.
					px := apptest.Eval[string](t, v, `(document.querySelector('tr[data-order="`+o.OrderID+`"] td:nth-child(3)')||{}).textContent||""`)
					if want := strconv.FormatFloat(o.Price, 'f', 2, 64); o.Price == 0 && px != "MKT" || o.Price != 0 && px != want {
						t.Errorf("order %s shows price %q, tool says %v", o.OrderID, px, o.Price)
					}
					if o.Status == "REJECTED" && o.RejectReason == fake.RejInsufficient {
						rejected++
					}
				}
				if rejected == 0 {
					t.Errorf("the order book has no order REJECTED for funds: %+v", out)
				}
				if n := apptest.Eval[int](t, v, `document.querySelectorAll("tr.order").length`); n != len(out) || n < 2 {
					t.Errorf("%d order rows, tool returned %d", n, len(out))
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := e.call(tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%s: %s", tc.tool, servetest.Text(res))
			}
			var bg []string
			for _, theme := range []string{"light", "dark"} {
				v := apptest.Open(t, browser, apptest.Run{HTML: tc.html, Args: tc.args, Result: res, Theme: theme})
				tc.check(t, v, res)
				v.Check(t)
				// A table scrolls inside its own box: none may hide a column there either.
				if hidden := apptest.Eval[int](t, v, `Array.from(document.querySelectorAll("table")).filter(function (t) { return t.parentElement.scrollWidth > t.parentElement.clientWidth }).length`); hidden > 0 {
					t.Errorf("%d tables are wider than the 360 px iframe", hidden)
				}
				bg = append(bg, v.Background(t))
				v.Screenshot(t, filepath.Join("..", "docs", tc.shot+"-"+theme+".png"))
			}
			if bg[0] == bg[1] {
				t.Errorf("dark theme did not change the background (%s)", bg[0])
			}
		})
	}
}
