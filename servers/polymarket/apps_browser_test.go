package main

import (
	"context"
	"encoding/json"
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
	"github.com/mcpfleet/mcpfleet/servers/polymarket/apps"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// appConn is a polymarket server on the fake, seen by a client that declares
// the MCP Apps extension.
func appConn(t *testing.T) (*servetest.Conn, *fake.Server) {
	t.Helper()
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewWithOptions(t, app(configForTest()),
		[]client.ClientOption{client.WithClientCapabilities(mcpapps.ClientCapabilities())},
		"--gamma-url", base, "--clob-url", base, "--data-url", base, "--btc-url", base, "--btc-fallback-url", base, "--timeout", "5s")
	return c, f
}

func readView(t *testing.T, c *servetest.Conn, uri string) string {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.Client.ReadResource(context.Background(), req)
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

func TestMarketViewLinks(t *testing.T) {
	c, _ := appConn(t)
	linked := map[string]bool{}
	for _, tl := range c.Tools(t) {
		b, _ := json.Marshal(tl.Meta)
		if strings.Contains(string(b), `"resourceUri":"`+apps.MarketURI+`"`) && strings.Contains(string(b), `"ui/resourceUri":"`+apps.MarketURI+`"`) {
			linked[tl.Name] = true
		}
	}
	for _, want := range []string{"get_price_history", "get_order_books", "get_market"} {
		if !linked[want] {
			t.Errorf("%s is not linked to %s", want, apps.MarketURI)
		}
	}
	if len(linked) != 3 {
		t.Errorf("linked tools: %v", linked)
	}
}

// shown reads a key number the view shows (data-k) as a float.
func shown(t *testing.T, v *apptest.View, scope, key string) float64 {
	t.Helper()
	s := apptest.Eval[string](t, v, `(document.querySelector(`+strconv.Quote(scope+` [data-k="`+key+`"] dd`)+`)||{}).textContent||""`)
	f, err := strconv.ParseFloat(strings.TrimPrefix(s, "$"), 64)
	if err != nil {
		t.Fatalf("%s %s shows %q", scope, key, s)
	}
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.0005+1e-9 }

func TestMarketViewInBrowser(t *testing.T) {
	browser := apptest.Browser(t)
	c, f := appConn(t)
	html := readView(t, c, apps.MarketURI)
	_, _, _, tok := f.Market(5)
	id, _, _, _ := f.Market(3)
	cases := []struct {
		name, tool string
		args       map[string]any
		check      func(t *testing.T, v *apptest.View, res *mcp.CallToolResult)
	}{
		{"history", "get_price_history", map[string]any{"token_id": tok[0], "interval": "1w", "fidelity": 60, "max_points": 50},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				out := servetest.Decode[tools.HistoryOut](t, res)
				if n := apptest.Eval[string](t, v, `document.querySelector(".u-series[data-series=price]").getAttribute("data-n")`); n != strconv.Itoa(len(out.Points)) {
					t.Errorf("chart holds %s points, tool returned %d", n, len(out.Points))
				}
				// The line spans the plot (≈ 280 px wide at 360 px): far more
				// pixels in its colour than a missing or one-point series paints.
				if px := apptest.SeriesPixels(t, v, "price"); px < 200 {
					t.Errorf("the price line paints %d pixels, want a line across the plot", px)
				}
				for k, want := range map[string]float64{"first": *out.First, "last": *out.Last, "min": *out.Min, "max": *out.Max, "points": float64(len(out.Points))} {
					if got := shown(t, v, "body", k); !near(got, want) {
						t.Errorf("%s shows %v, tool says %v", k, got, want)
					}
				}
			}},
		{"book", "get_order_books", map[string]any{"token_ids": []string{tok[0]}, "depth": 5},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				b := servetest.Decode[tools.BooksOut](t, res).Books[0]
				for k, want := range map[string]float64{"best_bid": *b.BestBid, "best_ask": *b.BestAsk, "spread": *b.Spread, "mid": *b.Mid} {
					if got := shown(t, v, "section", k); !near(got, want) {
						t.Errorf("%s shows %v, tool says %v", k, got, want)
					}
				}
				for side, levels := range map[string][][]float64{"bids": b.Bids, "asks": b.Asks} {
					if n := apptest.Eval[string](t, v, `document.querySelector("path[data-side=`+side+`]").getAttribute("data-n")`); n != strconv.Itoa(len(levels)) {
						t.Errorf("%s depth has %s levels, tool returned %d", side, n, len(levels))
					}
				}
			}},
		{"market", "get_market", map[string]any{"identifier": id, "detail": "full"},
			func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
				m := servetest.Decode[tools.MarketOut](t, res).Market
				if h := apptest.Eval[string](t, v, `document.querySelector("h1").textContent`); h != m.Question {
					t.Errorf("title %q, want %q", h, m.Question)
				}
				for _, o := range m.Outcomes {
					s := apptest.Eval[string](t, v, `document.querySelector('tr[data-outcome=`+strconv.Quote(o.Name)+`] td:last-child').textContent`)
					if got, _ := strconv.ParseFloat(s, 64); !near(got, o.Price) {
						t.Errorf("outcome %s shows %q, tool says %v", o.Name, s, o.Price)
					}
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Call(t, tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%s: %s", tc.tool, servetest.Text(res))
			}
			var bg []string
			for _, theme := range []string{"light", "dark"} {
				v := apptest.Open(t, browser, apptest.Run{HTML: html, Args: tc.args, Result: res, Theme: theme})
				tc.check(t, v, res)
				v.Check(t)
				bg = append(bg, v.Background(t))
				v.Screenshot(t, filepath.Join("docs", "market-"+tc.name+"-"+theme+".png"))
			}
			if bg[0] == bg[1] {
				t.Errorf("dark theme did not change the background (%s)", bg[0])
			}
		})
	}
}

// TestMarketViewFollowsHostTheme: a theme switch during the run
// (host-context-changed) recolours the page and redraws the price line in the
// dark palette, and the view answers ui/resource-teardown.
func TestMarketViewFollowsHostTheme(t *testing.T) {
	browser := apptest.Browser(t)
	c, f := appConn(t)
	html := readView(t, c, apps.MarketURI)
	_, _, _, tok := f.Market(5)
	args := map[string]any{"token_id": tok[0], "interval": "1w", "fidelity": 60, "max_points": 50}
	res := c.Call(t, "get_price_history", args)
	if res.IsError {
		t.Fatalf("get_price_history: %s", servetest.Text(res))
	}
	v := apptest.Open(t, browser, apptest.Run{HTML: html, Args: args, Result: res, Theme: "light"})
	marker := `getComputedStyle(document.querySelector(".u-series[data-series=price] .u-marker")).borderColor`
	light := apptest.Eval[string](t, v, marker)
	v.SetTheme(t, "dark")
	if dark := apptest.Eval[string](t, v, marker); dark == light {
		t.Errorf("the price line kept its light colour %s in dark theme", light)
	}
	if px := apptest.SeriesPixels(t, v, "price"); px < 200 {
		t.Errorf("after the theme switch the price line paints %d pixels in its dark colour", px)
	}
	v.Check(t)
	v.Teardown(t)
}
