package tools_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestOptionGreeks: get_option_greeks against the fake, table-driven: IV
// implied from the last price or given, Greeks with their signs, days to
// expiry, Noren's GetOptionGreek beside (or its error); bad arguments, a 429
// and a timeout.
func TestOptionGreeks(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	chain := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 25000, "strike_count": 1}))
	var call, put string
	for _, r := range chain.Rows {
		if r.Strike == 25000 {
			call, put = r.Call.TradingSymbol, r.Put.TradingSymbol
		}
	}
	if call == "" {
		t.Fatalf("no 25000 strike: %+v", chain)
	}
	cases := []struct {
		name   string
		args   map[string]any
		fault  *fake.Fault
		route  string
		source string
		call   bool
		broker bool
		code   envelope.Code
		text   string
	}{
		{name: "call, implied", args: map[string]any{"exchange": "NFO", "trading_symbol": call}, source: "implied", call: true, broker: true},
		{name: "put, implied", args: map[string]any{"exchange": "nfo", "trading_symbol": put}, source: "implied", broker: true},
		{name: "call, given", args: map[string]any{"exchange": "NFO", "trading_symbol": call, "volatility": 14}, source: "given", call: true, broker: true},
		{name: "broker refuses", args: map[string]any{"exchange": "NFO", "trading_symbol": call}, source: "implied", call: true,
			fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgJDataMissing}, route: "GetOptionGreek"},
		{name: "a future", args: map[string]any{"exchange": "NFO", "trading_symbol": strings.Replace(call, "C25000", "F", 1)}, code: envelope.InvalidArgument, text: "not an option"},
		{name: "expired", args: map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY01JAN20C25000"}, code: envelope.InvalidArgument, text: "expired"},
		{name: "unknown option", args: map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY28DEC28C25000"}, code: envelope.InvalidArgument, text: "no last price"},
		{name: "volatility too high", args: map[string]any{"exchange": "NFO", "trading_symbol": call, "volatility": 900}, code: envelope.InvalidArgument, text: "volatility"},
		{name: "429", args: map[string]any{"exchange": "NFO", "trading_symbol": call}, fault: &fake.Fault{Kind: fake.FaultRateLimit}, route: "GetQuotes", code: envelope.RateLimited},
		{name: "timeout", args: map[string]any{"exchange": "NFO", "trading_symbol": call}, fault: &fake.Fault{Kind: fake.FaultTimeout}, route: "SearchScrip", code: envelope.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != nil {
				e.fake.SetFault(c.route, *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, "get_option_greeks", c.args)
			if c.code != "" {
				body := servetest.ErrorBody(t, res)
				if body.Code != c.code && !(c.code == envelope.RateLimited && body.Code == envelope.Timeout) {
					t.Fatalf("want %s, got %+v", c.code, body)
				}
				if !strings.Contains(body.Message+" "+anyText(body.Details["field"]), c.text) {
					t.Fatalf("want %q named: %+v", c.text, body)
				}
				return
			}
			out := servetest.Decode[tools.GreeksOut](t, res)
			if out.IVSource != c.source || out.IV <= 0 || out.DaysToExpiry <= 0 || out.UnderlyingPrice <= 0 || out.Gamma <= 0 || out.VegaPer1Pct <= 0 || out.ThetaPerDay >= 0 ||
				c.call != (out.Delta > 0) || math.Abs(out.Delta) >= 1 {
				t.Fatalf("greeks: %+v", out)
			}
			if c.source == "given" && out.IV != 14 {
				t.Fatalf("given volatility not used: %+v", out)
			}
			if _, failed := out.Broker["error"]; failed == c.broker {
				t.Fatalf("broker figures: %+v", out.Broker)
			}
			if c.broker && math.Abs(out.Broker["delta"].(float64)-out.Delta) > 0.05 {
				t.Fatalf("Noren's delta %v is far from ours %v", out.Broker["delta"], out.Delta)
			}
		})
	}
}
