package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// Paging through the markets on the keyset route returns each once: the 250
// open ones by default, and with state=all the closed ones after them.
func TestPaging250Markets(t *testing.T) {
	s := start(t, opts{})
	for _, tc := range []struct {
		state string
		want  int
	}{{"open", fake.NumOpen}, {"all", fake.NumMarkets}, {"closed", fake.NumMarkets - fake.NumOpen}} {
		t.Run(tc.state, func(t *testing.T) {
			seen := map[string]int{}
			cur, pages := "", 0
			for {
				args := map[string]any{"limit": 100, "state": tc.state}
				if cur != "" {
					args["cursor"] = cur
				}
				out := call[tools.MarketsOut](t, s, "list_markets", args)
				pages++
				for _, m := range out.Markets {
					seen[m.ID]++
				}
				if out.NextCursor == "" {
					break
				}
				if pages > 10 {
					t.Fatal("paging does not end")
				}
				cur = out.NextCursor
			}
			if len(seen) != tc.want {
				t.Fatalf("%d distinct markets, want %d", len(seen), tc.want)
			}
			for id, n := range seen {
				if n != 1 {
					t.Fatalf("market %s returned %d times", id, n)
				}
			}
		})
	}
	t.Run("events", func(t *testing.T) {
		seen, cur := map[string]int{}, ""
		for i := 0; i < 20; i++ {
			args := map[string]any{"limit": 7}
			if cur != "" {
				args["cursor"] = cur
			}
			out := call[tools.EventsOut](t, s, "list_events", args)
			for _, e := range out.Events {
				seen[e.ID]++
			}
			if cur = out.NextCursor; cur == "" {
				break
			}
		}
		if len(seen) != fake.NumOpen/fake.PerEvent {
			t.Fatalf("%d events", len(seen))
		}
	})
	t.Run("a cursor from another tool is refused", func(t *testing.T) {
		out := call[tools.EventsOut](t, s, "list_events", map[string]any{"limit": 2})
		res := s.conn.Call(t, "list_markets", map[string]any{"cursor": out.NextCursor})
		if b := servetest.ErrorBody(t, res); b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "next_cursor") {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("no request reaches the sunset /markets or /events", func(t *testing.T) {
		if n := s.fake.Count(fake.RouteMarkets) + s.fake.Count(fake.RouteEvents); n != 0 {
			t.Fatalf("%d requests to the legacy routes", n)
		}
	})
}

// Per-user limits: public reads and user-data tools have their own windows.
func TestPerUserLimits(t *testing.T) {
	s := start(t, opts{publicMax: 3, userMax: 2})
	for i := 0; i < 3; i++ {
		id, _, _, _ := s.fake.Market(i)
		call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": id})
	}
	id, _, _, _ := s.fake.Market(3)
	res := s.conn.Call(t, "get_market", map[string]any{"identifier": id})
	b := servetest.ErrorBody(t, res)
	if b.Code != envelope.RateLimited || !b.Retryable || b.RetryAfterS == nil || *b.RetryAfterS > 60 || !strings.Contains(b.Message, "3 public read") {
		t.Fatalf("%+v", b)
	}
	for i := 0; i < 2; i++ {
		call[tools.PositionsOut](t, s, "get_user_positions", map[string]any{"user": fake.KnownUser, "limit": i + 1})
	}
	b = servetest.ErrorBody(t, s.conn.Call(t, "get_user_positions", map[string]any{"user": fake.KnownUser, "limit": 9}))
	if b.Code != envelope.RateLimited || !strings.Contains(b.Message, "2 user-data") {
		t.Fatalf("%+v", b)
	}
}

// Over HTTP the bearer user keys the limit: one user's budget does not spend another's.
func TestLimitsPerBearerUser(t *testing.T) {
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice=tok-alice-1234567890,bob=tok-bob-1234567890")
	s := start(t, opts{publicMax: 2})
	alice := s.conn.HTTPClient(t, "", map[string]string{"Authorization": "Bearer tok-alice-1234567890"})
	bob := s.conn.HTTPClient(t, "", map[string]string{"Authorization": "Bearer tok-bob-1234567890"})
	n := 0
	callAs := func(c interface {
		CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
	}) *mcp.CallToolResult {
		id, _, _, _ := s.fake.Market(n) // a new market each time: cache hits do not count
		n++
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "get_market", map[string]any{"identifier": id}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for i := 0; i < 2; i++ {
		if res := callAs(alice); res.IsError {
			t.Fatalf("alice %d: %s", i, servetest.Text(res))
		}
	}
	if res := callAs(alice); !res.IsError || servetest.ErrorBody(t, res).Code != envelope.RateLimited {
		t.Fatalf("alice's third call: %s", servetest.Text(res))
	}
	if res := callAs(bob); res.IsError {
		t.Fatalf("bob: %s", servetest.Text(res))
	}
}

// Two servers on one real redis-server share one user's budget.
func TestTwoReplicasShareLimits(t *testing.T) {
	srv := redistest.StartServer(t)
	url := "redis://" + srv.Addr() + "/0"
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	a := connect(t, base, opts{redisURL: url, publicMax: 4})
	b := connect(t, base, opts{redisURL: url, publicMax: 4})
	admitted := 0
	for i := 0; i < 8; i++ {
		id, _, _, _ := f.Market(i)
		c := []*servetest.Conn{a, b}[i%2]
		res := c.Call(t, "get_market", map[string]any{"identifier": id})
		if !res.IsError {
			admitted++
			continue
		}
		if e := servetest.ErrorBody(t, res); e.Code != envelope.RateLimited {
			t.Fatalf("call %d: %+v", i, e)
		}
	}
	if admitted != 4 {
		t.Fatalf("admitted %d calls over two replicas, want 4 (one shared budget)", admitted)
	}
	if n := f.Count(fake.RouteMarket); n != 4 {
		t.Fatalf("Gamma saw %d market requests, want 4 (a denied call sends nothing)", n)
	}
	// the cache is shared too: replica b answers what a fetched without a request
	srv.NewClient(t).FlushAll(context.Background())
	id, _, _, _ := f.Market(100)
	a2 := connect(t, base, opts{redisURL: url})
	b2 := connect(t, base, opts{redisURL: url})
	call := func(c *servetest.Conn) tools.MarketOut {
		res := c.Call(t, "get_market", map[string]any{"identifier": id})
		if res.IsError {
			t.Fatalf("%s", servetest.Text(res))
		}
		return servetest.Decode[tools.MarketOut](t, res)
	}
	call(a2)
	if out := call(b2); out.Market.ID != id || f.Count(fake.RouteMarket) != 5 {
		t.Fatalf("replica b refetched: %d requests", f.Count(fake.RouteMarket))
	}
}

// Redis down: the shared limiter fails closed, nothing reaches Polymarket.
func TestRedisDownFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t)
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	c := connect(t, base, opts{redisURL: "redis://" + srv.Addr() + "/0"})
	id, _, _, _ := f.Market(0)
	if res := c.Call(t, "get_market", map[string]any{"identifier": id}); res.IsError {
		t.Fatalf("%s", servetest.Text(res))
	}
	_ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err() // the connection drops as it stops
	before := f.Count(fake.RouteMarket)
	id2, _, _, _ := f.Market(1)
	b := servetest.ErrorBody(t, c.Call(t, "get_market", map[string]any{"identifier": id2}))
	if b.Code != envelope.UpstreamUnavailable || !strings.Contains(b.Message, "Redis") || !strings.Contains(b.Message, "nothing was sent") {
		t.Fatalf("%+v", b)
	}
	if f.Count(fake.RouteMarket) != before {
		t.Fatal("a request reached Polymarket with the limiter down")
	}
}
