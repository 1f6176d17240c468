package tools_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestWatchlists: get_watchlists and edit_watchlist against the fake,
// table-driven and in order (an edit is read back): names, a watch quoted,
// an empty watch said so, an unknown watch an error naming get_watchlists,
// bad arguments, a 429 and a timeout.
func TestWatchlists(t *testing.T) {
	e := quietEnv(t, fake.Config{}, fastTimeouts)
	type want struct {
		names []string // get_watchlists without a name
		rows  int      // quoted rows
		keys  []string // edit_watchlist: what the watch holds after
		empty bool
		part  bool
		code  envelope.Code
		text  string
	}
	cases := []struct {
		name  string
		tool  string
		args  map[string]any
		fault *fake.Fault
		route string
		want  want
	}{
		{name: "names", tool: "get_watchlists", args: map[string]any{}, want: want{names: []string{"1", "2", "3", "4", "5"}}},
		{name: "one watch quoted", tool: "get_watchlists", args: map[string]any{"name": "1"}, want: want{rows: 2}},
		{name: "empty watch", tool: "get_watchlists", args: map[string]any{"name": "2"}, want: want{empty: true}},
		{name: "unknown watch", tool: "get_watchlists", args: map[string]any{"name": "9"}, want: want{code: envelope.InvalidArgument, text: "get_watchlists without a name"}},
		{name: "quotes fail", tool: "get_watchlists", args: map[string]any{"name": "1"}, fault: &fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgNoData}, route: "GetQuotes", want: want{part: true}},
		{name: "add", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "add", "instruments": []any{"NSE|11536", "nse|3045"}}, want: want{keys: []string{"NSE|11536", "NSE|3045"}}},
		{name: "add again changes nothing", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "add", "instruments": []any{"NSE|11536"}}, want: want{keys: []string{"NSE|11536", "NSE|3045"}}},
		{name: "read back", tool: "get_watchlists", args: map[string]any{"name": "2"}, want: want{rows: 2}},
		{name: "answer lost, read back", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "remove", "instruments": []any{"NSE|3045"}},
			fault: &fake.Fault{Kind: fake.FaultTimeout}, route: "DeleteMultiMWScrips", want: want{keys: []string{"NSE|11536"}}},
		{name: "remove all", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "remove", "instruments": []any{"NSE|11536"}}, want: want{keys: []string{}, empty: true}},
		{name: "unknown scrip", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "add", "instruments": []any{"NSE|999999"}}, want: want{code: envelope.InvalidArgument, text: "invalid input"}},
		{name: "unknown action", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "move", "instruments": []any{"NSE|22"}}, want: want{code: envelope.InvalidArgument, text: "action"}},
		{name: "not EXCHANGE|token", tool: "edit_watchlist", args: map[string]any{"name": "2", "action": "add", "instruments": []any{"ACC"}}, want: want{code: envelope.InvalidArgument, text: "instruments"}},
		{name: "429", tool: "get_watchlists", args: map[string]any{}, fault: &fake.Fault{Kind: fake.FaultRateLimit}, route: "MWList", want: want{code: envelope.RateLimited}},
		{name: "timeout", tool: "get_watchlists", args: map[string]any{"name": "1"}, fault: &fake.Fault{Kind: fake.FaultTimeout}, route: "MarketWatch", want: want{code: envelope.Timeout}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if c.fault != nil {
				e.fake.SetFault(c.route, *c.fault)
				defer e.fake.ClearFaults()
			}
			res := e.callWithin(5*time.Second, c.tool, c.args)
			w := c.want
			if w.code != "" {
				body := servetest.ErrorBody(t, res)
				if body.Code != w.code && !(w.code == envelope.RateLimited && body.Code == envelope.Timeout) {
					t.Fatalf("want %s, got %+v", w.code, body)
				}
				if !strings.Contains(strings.ToLower(body.Message+" "+anyText(body.Details["field"])+" "+anyText(body.Details["broker_message"])), w.text) {
					t.Fatalf("want %q named: %+v", w.text, body)
				}
				return
			}
			if c.tool == "edit_watchlist" {
				out := servetest.Decode[tools.EditWatchOut](t, res)
				if !slices.Equal(out.Instruments, w.keys) || (out.Empty != "") != w.empty {
					t.Fatalf("watch holds %v: %+v", w.keys, out)
				}
				return
			}
			out := servetest.Decode[tools.WatchOut](t, res)
			switch {
			case w.names != nil:
				if !slices.Equal(out.Names, w.names) || !out.Complete {
					t.Fatalf("names: %+v", out)
				}
			case w.empty:
				if !out.Complete || out.Empty == "" || len(out.Rows) != 0 {
					t.Fatalf("empty watch: %+v", out)
				}
			case w.part:
				if out.Complete || len(out.Failed) != 2 || len(out.Rows) != 0 {
					t.Fatalf("quotes failed: %+v", out)
				}
			default:
				rows := out.List()
				if len(rows) != w.rows || !out.Complete {
					t.Fatalf("rows: %+v", out)
				}
				for _, r := range rows {
					if r.LastPrice <= 0 || r.TradingSymbol == "" {
						t.Fatalf("row unquoted: %+v", r)
					}
				}
			}
		})
	}
}
