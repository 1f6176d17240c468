package tools_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestSearchScripCached: a repeated search is answered from the cache (it
// succeeds even while Noren would now fail), a new text reaches Noren, and a
// failed search is not cached.
func TestSearchScripCached(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{})
	e.connect()
	args := map[string]any{"exchange": "NSE", "search_text": "INFY"}
	first := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", args))
	if len(first.List()) == 0 {
		t.Fatal("no INFY on the fake")
	}
	e.fake.SetFault("SearchScrip", fake.Fault{Kind: fake.FaultStatus, Status: 500})
	if res := e.call("search_scrip", args); res.IsError {
		t.Fatalf("a repeat reached Noren: %s", servetest.Text(res))
	}
	other := map[string]any{"exchange": "NSE", "search_text": "RELIANCE"}
	if res := e.call("search_scrip", other); !res.IsError {
		t.Fatalf("a new text did not reach Noren: %s", servetest.Text(res))
	}
	e.fake.ClearFaults()
	if out := servetest.Decode[tools.SearchOut](t, e.call("search_scrip", other)); len(out.List()) == 0 {
		t.Fatal("the failed search was cached")
	}
}

// TestScripCacheKeys: copies are per user, exchange and text; with Redis two
// replicas share them.
func TestScripCacheKeys(t *testing.T) {
	alice := serve.WithUser(context.Background(), "alice")
	bob := serve.WithUser(context.Background(), "bob")
	var n atomic.Int32
	fetch := func(context.Context) (tools.SearchOut, error) {
		n.Add(1)
		return tools.SearchOut{Cols: toolkit.Columns[tools.Instrument](), Rows: [][]any{{"INFY-EQ", "1594", 1.0, 0.05, "EQ", ""}}}, nil
	}
	for _, shared := range []bool{false, true} {
		t.Run(map[bool]string{false: "memory", true: "redis shared by two replicas"}[shared], func(t *testing.T) {
			n.Store(0)
			a := tools.NewScripCache(nil)
			b := a
			if shared {
				rdb := redistest.Start(t)
				a, b = tools.NewScripCache(rdb), tools.NewScripCache(rdb)
			}
			steps := []struct {
				ctx        context.Context
				exch, text string
				want       int32
			}{
				{alice, "NSE", "INFY", 1},
				{alice, "NSE", "INFY", 1}, // on b: cached (shared through Redis)
				{bob, "NSE", "INFY", 2},
				{alice, "BSE", "INFY", 3},
				{alice, "NSE", "infy", 4},
			}
			for i, s := range steps {
				c := a
				if i%2 == 1 {
					c = b
				}
				if _, _, err := c.Get(s.ctx, tools.ScripKeyForTest(s.ctx, s.exch, s.text), fetch); err != nil {
					t.Fatal(err)
				}
				if got := n.Load(); got != s.want {
					t.Fatalf("step %d: %d fetches, want %d", i, got, s.want)
				}
			}
		})
	}
}

// TestSearchOutThroughRedis: another replica's copy read from Redis encodes
// to the same bytes as the value the filler fetched, and no hits is still an
// array of rows, as the output schema says.
func TestSearchOutThroughRedis(t *testing.T) {
	rdb := redistest.Start(t)
	filler, reader := tools.NewScripCache(rdb), tools.NewScripCache(rdb)
	ctx := serve.WithUser(context.Background(), "alice")
	key := tools.ScripKeyForTest(ctx, "NSE", "INFY")
	fetched := tools.SearchOutForTest([]noren.Scrip{{Exch: "NSE", TSym: "INFY-EQ", Token: "1594", LotSize: 1, TickSize: 0.05, InstName: "EQ"}})
	fetch := func(context.Context) (tools.SearchOut, error) { return fetched, nil }
	want, err := json.Marshal(fetched)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		c    *cache.Cache[tools.SearchOut]
	}{{"fetched here", filler}, {"read from Redis", reader}} {
		out, _, err := step.c.Get(ctx, key, fetch)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s: %s, want %s", step.name, got, want)
		}
	}
	empty, err := json.Marshal(tools.SearchOutForTest(nil))
	if err != nil || string(empty) != `{"complete":true,"empty":"Shoonya answered \"No Data\": nothing matches this text on this exchange","cols":["trading_symbol","token","lot_size","tick_size","instrument_type","option_type"],"rows":[]}` {
		t.Fatalf("empty answer encoded as %s (%v)", empty, err)
	}
}

// BenchmarkSearchScripCached: a cached search_scrip through the in-process
// client (the spine, the handler and the cache hit; no transport).
func BenchmarkSearchScripCached(b *testing.B) {
	newEnv(b, noren.Legacy, envOpt{})
	c := servetest.NewProduction(b, app())
	var req mcp.CallToolRequest
	req.Params.Name = "connect_shoonya_broker"
	req.Params.Arguments = map[string]any{}
	if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
		b.Fatalf("connect: %v %+v", err, res)
	}
	req.Params.Name = "search_scrip"
	req.Params.Arguments = map[string]any{"exchange": "NSE", "search_text": "INFY"}
	b.ReportAllocs()
	for b.Loop() {
		if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
