package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/feed"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// eraClient connects to a built server over streamable HTTP in one protocol
// era and counts the resources/updated it receives per URI.
func eraClient(t *testing.T, b *serve.Built, version string) (*client.Client, func(uri string) int) {
	t.Helper()
	srv := httptest.NewServer(serve.HTTPHandler(b))
	t.Cleanup(srv.Close)
	var opts []transport.StreamableHTTPCOption
	if version == mcp.ProtocolVersion20251125 {
		//lint:ignore SA1019 the 2025-11-25 era's standalone GET stream is what delivers resources/updated there
		opts = append(opts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(srv.URL+"/mcp", opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(version))
	var mu sync.Mutex
	got := map[string]int{}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationResourceUpdated) {
			u, _ := n.Params.AdditionalFields["uri"].(string)
			mu.Lock()
			got[u]++
			mu.Unlock()
		}
	})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := servetest.Initialize(ctx, c, version); err != nil {
		t.Fatalf("initialize %s: %v", version, err)
	}
	return c, func(uri string) int { mu.Lock(); defer mu.Unlock(); return got[uri] }
}

// watch subscribes c to uris in its era: resources/subscribe (2025-11-25)
// or one subscriptions/listen stream (2026-07-28).
func watch(t *testing.T, c *client.Client, version string, uris ...string) {
	t.Helper()
	if version == mcp.ProtocolVersion20251125 {
		for _, u := range uris {
			var sr mcp.SubscribeRequest
			sr.Params.URI = u
			//lint:ignore SA1019 resources/subscribe is the 2025-11-25 call under test
			if err := c.Subscribe(context.Background(), sr); err != nil {
				t.Fatalf("subscribe %s: %v", u, err)
			}
		}
		return
	}
	stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ResourceSubscriptions: uris}, nil)
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	t.Cleanup(stop)
}

func waitUntil(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
	}
}

func callOn(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %s", name, err, servetest.Text(res))
	}
	return res
}

func feedOf(t *testing.T, res *mcp.CallToolResult) tools.FeedOut {
	t.Helper()
	var out tools.FeedOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

// feedGoroutines counts the goroutines of the market socket (client and
// fake side): a goleak-style check that nothing outlives an unsubscribe.
func feedGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "polymarket/feed.(*Conn)") || strings.Contains(g, "polymarket/fake.(*Server).wsTicks") ||
			strings.Contains(g, "polymarket/fake.(*Server).marketSocket") {
			n++
		}
	}
	return n
}

// TestLiveFeed: a client of each era subscribes a market through the tool,
// watches its resources and gets notifications/resources/updated as the
// fake socket sends price changes; the feed survives the socket being
// dropped (a reconnect, then updates again, no new subscribe call); a
// tick_size_change lands in the quote; unsubscribing closes the socket and
// leaves no goroutine behind.
func TestLiveFeed(t *testing.T) {
	for _, era := range []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(era, func(t *testing.T) {
			s := start(t, opts{})
			_, _, cond, tok := s.fake.Market(2)
			c, count := eraClient(t, s.conn.Built, era)
			out := feedOf(t, callOn(t, c, "subscribe_market_feed", map[string]any{"markets": []string{cond}}))
			if len(out.Quotes) != 2 || !out.Complete || out.Total != 2 || len(out.Added) != 2 {
				t.Fatalf("first quotes: %+v", out)
			}
			for _, q := range out.Quotes {
				if !q.HaveBook || q.BestBid == nil || q.BestAsk == nil || *q.BestBid >= *q.BestAsk || q.Mid == nil ||
					q.Market != cond || q.Outcome == "" || len(q.Bids) == 0 || q.Bids[0][0] != *q.BestBid {
					t.Fatalf("quote: %+v", q)
				}
			}
			marketURI, tokenURI := feed.MarketURI(cond), feed.MarketURI(tok[0])
			watch(t, c, era, marketURI, tokenURI, feed.AllURI)
			waitUntil(t, 5*time.Second, "updates of the market, the token and the combined feed", func() bool {
				return count(marketURI) >= 3 && count(tokenURI) >= 3 && count(feed.AllURI) >= 1
			})

			s.fake.DropSockets()
			waitUntil(t, 10*time.Second, "a reconnect", func() bool {
				return feedOf(t, callOn(t, c, "get_market_feed", nil)).Socket.Reconnects >= 1 && s.fake.SocketConnects() >= 2
			})
			before := count(marketURI)
			waitUntil(t, 5*time.Second, "updates after the reconnect", func() bool { return count(marketURI) >= before+3 })

			s.fake.TickSizeChange(tok[0], "0.01", "0.001")
			waitUntil(t, 5*time.Second, "the tick size change", func() bool {
				qs := feedOf(t, callOn(t, c, "get_market_feed", map[string]any{"id": tok[0]})).Quotes
				return len(qs) == 1 && qs[0].TickSize != nil && *qs[0].TickSize == 0.001
			})

			if feedGoroutines() == 0 {
				t.Fatal("the goroutine check sees no socket goroutine while one is open")
			}
			var un tools.FeedUnsubOut
			b, _ := json.Marshal(callOn(t, c, "unsubscribe_market_feed", map[string]any{"all": true}).StructuredContent)
			_ = json.Unmarshal(b, &un)
			if len(un.Removed) != 2 || un.Left != 0 {
				t.Fatalf("%s", b)
			}
			waitUntil(t, 5*time.Second, "the idle socket closed and its goroutines gone", func() bool {
				return s.fake.Sockets() == 0 && feedGoroutines() == 0
			})
			if out := feedOf(t, callOn(t, c, "get_market_feed", nil)); len(out.Quotes) != 0 || out.Empty == "" {
				t.Fatalf("after unsubscribe: %+v", out)
			}
		})
	}
}

// TestLiveFeedRefusals: arguments that cannot stream are refused with the
// fix; a watched URI the feed can never have is refused before any
// acknowledgement; a socket that cannot connect is an error that leaves
// nothing subscribed.
func TestLiveFeedRefusals(t *testing.T) {
	s := start(t, opts{})
	_, _, cond, _ := s.fake.Market(1)
	_, _, closedCond, _ := s.fake.Market(fake.NumOpen)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "name markets"},
		{map[string]any{"token_ids": []string{cond}}, "pass markets"},
		{map[string]any{"markets": []string{"0x" + strings.Repeat("cd", 32)}}, ""},
		{map[string]any{"markets": []string{closedCond}}, "closed"},
		{map[string]any{"token_ids": []string{strings.Repeat("7", 77)}}, ""},
	} {
		res := s.conn.Call(t, "subscribe_market_feed", tc.args)
		if b := servetest.ErrorBody(t, res); !res.IsError || !strings.Contains(b.Message, tc.want) {
			t.Fatalf("%v: %+v", tc.args, b)
		}
	}
	c, _ := eraClient(t, s.conn.Built, mcp.ProtocolVersion20251125)
	var sr mcp.SubscribeRequest
	sr.Params.URI = feed.MarketURI(strings.ToUpper(cond[2:]))
	//lint:ignore SA1019 resources/subscribe is the 2025-11-25 call under test
	if err := c.Subscribe(context.Background(), sr); err == nil {
		t.Fatal("a URI the feed cannot have was acknowledged")
	}

	s.fake.SetFault(fake.Fault{Kind: fake.Fault500, Route: fake.RouteMarketSocket})
	defer s.fake.ClearFaults()
	res := s.conn.Call(t, "subscribe_market_feed", map[string]any{"markets": []string{cond}})
	if b := servetest.ErrorBody(t, res); !res.IsError || b.Code != "upstream_unavailable" || !b.Retryable {
		t.Fatalf("%+v", b)
	}
	out := servetest.Decode[tools.FeedOut](t, s.conn.Call(t, "get_market_feed", nil))
	if len(out.Quotes) != 0 || out.Total != 0 {
		t.Fatalf("a failed subscribe left %+v", out)
	}
}

// TestLiveFeedAcrossReplicas: two replicas share a real redis-server; the
// socket lives on replica A (the subscribe ran there) and a client of each
// era watching the market on replica B gets its updates. B opens no socket.
func TestLiveFeedAcrossReplicas(t *testing.T) {
	rs := redistest.StartServer(t)
	url := "redis://" + rs.Addr() + "/0"
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	a := connect(t, base, opts{redisURL: url})
	b := connect(t, base, opts{redisURL: url})
	_, _, cond, _ := f.Market(5)
	if res := a.Call(t, "subscribe_market_feed", map[string]any{"markets": []string{cond}}); res.IsError {
		t.Fatalf("%s", servetest.Text(res))
	}
	uri := feed.MarketURI(cond)
	for _, era := range []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(era, func(t *testing.T) {
			c, count := eraClient(t, b.Built, era)
			watch(t, c, era, uri)
			waitUntil(t, 10*time.Second, "replica B hearing replica A's socket", func() bool { return count(uri) >= 3 })
		})
	}
	if n := f.SocketConnects(); n != 1 {
		t.Fatalf("%d sockets opened, want 1 (replica A's)", n)
	}
}
