package tools_test

import (
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestOptionChainStaysWithinBrokerLimits: a 10-strike chain is 40 quote calls;
// the fake enforces Noren's 20/s and 200/min with HTTP 429, and the
// client-side limiter keeps every leg clear of it.
func TestOptionChainStaysWithinBrokerLimits(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	e.connect()
	nfo := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", map[string]any{"exchange": "NFO", "search_text": "NIFTY"}))
	var opt string
	strike := 25000.0 // the fake's NIFTY spot is about 25012 with 50-point strikes
	for _, in := range nfo.List() {
		if in.OptionType == "PE" {
			opt = in.TradingSymbol
			break
		}
	}
	start := time.Now()
	chain := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": opt, "strike_price": strike, "strike_count": 10}))
	took := time.Since(start)
	if chain.Legs < 30 {
		t.Fatalf("only %d legs", chain.Legs)
	}
	for _, r := range chain.Rows {
		for _, l := range []*tools.Leg{r.Call, r.Put} {
			if l != nil && l.QuoteError != "" {
				t.Fatalf("strike %v: %s", r.Strike, l.QuoteError)
			}
		}
	}
	t.Logf("%d legs quoted in %v", chain.Legs, took)
}
