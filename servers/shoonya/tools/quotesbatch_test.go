package tools_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestQuotesBatch: many instruments in one call, a row each with change and
// change %, a miss named per instrument with coverage saying how many
// answered; nothing answered is an error; bad arguments, a 429 and a timeout.
func TestQuotesBatch(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	many := make([]any, 0, 51)
	for i := range 51 {
		many = append(many, fmt.Sprintf("NSE|%d", 90000+i))
	}
	cases := []struct {
		name   string
		keys   []any
		fault  *fake.Fault
		rows   int
		failed []string
		code   envelope.Code
		text   string
	}{
		{name: "three", keys: []any{"NSE|2885", "nse|1594", "NSE|11536"}, rows: 3},
		{name: "repeats quoted once", keys: []any{"NSE|2885", "NSE|2885"}, rows: 1},
		{name: "one unknown", keys: []any{"NSE|2885", "NSE|999999"}, rows: 1, failed: []string{"NSE|999999"}},
		{name: "none known", keys: []any{"NSE|999998", "NSE|999999"}, code: envelope.NotFound, text: "no instrument was quoted"},
		{name: "too many", keys: many, code: envelope.InvalidArgument, text: "instruments"},
		{name: "empty", keys: []any{}, code: envelope.InvalidArgument, text: "instruments"},
		{name: "not EXCHANGE|token", keys: []any{"RELIANCE"}, code: envelope.InvalidArgument, text: "instruments"},
		{name: "429", keys: []any{"NSE|2885", "NSE|1594"}, fault: &fake.Fault{Kind: fake.FaultRateLimit}, code: envelope.RateLimited},
		{name: "timeout", keys: []any{"NSE|2885"}, fault: &fake.Fault{Kind: fake.FaultTimeout}, code: envelope.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != nil {
				e.fake.SetFault("GetQuotes", *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, "get_quotes_batch", map[string]any{"instruments": c.keys})
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
			out := servetest.Decode[tools.BatchOut](t, res)
			rows := out.List()
			if len(rows) != c.rows || len(out.Failed) != len(c.failed) || out.Complete != (len(c.failed) == 0) {
				t.Fatalf("rows %d failed %v: %+v", len(rows), out.Failed, out)
			}
			for _, f := range c.failed {
				if !strings.Contains(out.Failed[f], "not_found") || !strings.Contains(out.Incomplete.Missing, fmt.Sprintf("%d of %d", c.rows, c.rows+len(c.failed))) {
					t.Fatalf("miss of %s: %+v", f, out)
				}
			}
			for _, r := range rows {
				q := servetest.Decode[tools.QuoteOut](t, e.call("get_quotes", map[string]any{"exchange": "NSE", "token": strings.TrimPrefix(r.Instrument, "NSE|")}))
				if r.TradingSymbol != q.TradingSymbol || r.LastPrice != q.LastPrice || math.Abs(r.Change-(q.LastPrice-q.Close)) > 0.006 || r.ChangePct != q.ChangePct {
					t.Fatalf("row %+v, quote %+v", r, q)
				}
			}
		})
	}
}
