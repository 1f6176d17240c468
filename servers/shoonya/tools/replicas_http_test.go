package tools_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// Two HTTP replicas on one redis-server behind a round-robin reverse proxy,
// with bearer users: alice's login (through whichever replica took it) serves
// her calls on both; bob, another user, is not logged in by it.
func TestReplicasOverHTTPRoundRobin(t *testing.T) {
	rs := redistest.StartServer(t)
	const aliceTok, bobTok = "alice-token-0123456789", "bob-token-0123456789ab"
	a := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{
		"MCPFLEET_REDIS_URL": "redis://" + rs.Addr() + "/0", "MCPFLEET_STATE_KEY": stateKey(t),
		"MCPFLEET_AUTH_TOKENS": "alice=" + aliceTok + ",bob=" + bobTok,
	}})
	b := servetest.New(t, app())
	var hits [2]atomic.Int64
	var backends []*url.URL
	for i, built := range []*serve.Built{a.conn.Built, b.Built} {
		h := serve.HTTPHandler(built)
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(ts.Close)
		u, _ := url.Parse(ts.URL)
		backends = append(backends, u)
	}
	var next atomic.Int64
	lb := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[next.Add(1)%2])
	}})
	t.Cleanup(lb.Close)

	connect := func(token string) *client.Client {
		tr, err := transport.NewStreamableHTTP(lb.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr) // 2026-07-28: stateless, any replica answers any call
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if err := servetest.Initialize(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
		return c
	}
	call := func(c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res
	}
	alice, bob := connect(aliceTok), connect(bobTok)
	if out := servetest.Decode[tools.ConnectOut](t, call(alice, "connect_shoonya_broker", map[string]any{})); out.Status != "connected" {
		t.Fatalf("alice connect: %+v", out)
	}
	before := [2]int64{hits[0].Load(), hits[1].Load()}
	for range 4 {
		servetest.Decode[tools.OrderBookOut](t, call(alice, "get_order_book", nil))
	}
	if hits[0].Load() == before[0] || hits[1].Load() == before[1] {
		t.Errorf("calls did not alternate replicas: %d/%d requests", hits[0].Load()-before[0], hits[1].Load()-before[1])
	}
	placed := servetest.Decode[tools.PlaceOut](t, call(alice, "place_order", map[string]any{
		"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "side": "BUY", "quantity": 1,
		"order_type": "LIMIT", "price": 1300, "product": "CNC", "idempotency_key": "lb-1",
	}))
	for range 2 { // both replicas see the one order
		ob := servetest.Decode[tools.OrderBookOut](t, call(alice, "get_order_book", nil))
		if len(ob.Orders) != 1 || ob.Orders[0].OrderID != placed.OrderID {
			t.Fatalf("order book: %+v", ob)
		}
	}
	if len(a.fake.Ledger()) != 1 {
		t.Errorf("the broker got %d orders, want 1", len(a.fake.Ledger()))
	}
	for range 2 {
		if body := servetest.ErrorBody(t, call(bob, "get_order_book", nil)); body.Code != "unauthenticated" {
			t.Fatalf("bob: %+v", body)
		}
	}
}
