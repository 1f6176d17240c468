package tools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

func readTick(t testing.TB, c *client.Client, uri string) (feed.Tick, bool) {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.ReadResource(context.Background(), req)
	if err != nil || len(res.Contents) == 0 {
		return feed.Tick{}, false
	}
	var tick feed.Tick
	if tc, ok := res.Contents[0].(mcp.TextResourceContents); ok && json.Unmarshal([]byte(tc.Text), &tick) == nil {
		return tick, true
	}
	return feed.Tick{}, false
}

func readAll(t testing.TB, c *client.Client) feed.Snapshot {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = feed.AllURI
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatalf("read %s: %v", feed.AllURI, err)
	}
	var s feed.Snapshot
	_ = json.Unmarshal([]byte(res.Contents[0].(mcp.TextResourceContents).Text), &s)
	return s
}

func waitFor(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out after %v waiting for %s", d, what)
}

// TestFeedSurvivesDrop: ticks reach the resource, the websocket is dropped,
// and ticks flow again after the reconnect without a new subscribe call.
func TestFeedSurvivesDrop(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{})
			e.connect()
			e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885", "NSE|1594"}})
			e.call("subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885"}, "depth": true})
			uri := feed.InstrumentURI("NSE", "2885")
			var before feed.Tick
			waitFor(t, 5*time.Second, "first ticks", func() bool {
				tk, ok := readTick(t, e.conn.Client, uri)
				before = tk
				return ok && tk.Ticks > 1 && tk.LastPrice != nil && len(tk.Bids) > 0
			})
			e.call("unsubscribe_market_feeds", map[string]any{"instruments": []string{"NSE|1594"}})
			e.fake.DropWebsockets()
			waitFor(t, 10*time.Second, "a reconnect and fresh ticks", func() bool {
				snap := readAll(t, e.conn.Client)
				tk, _ := readTick(t, e.conn.Client, uri)
				return snap.Feed.Reconnects >= 1 && snap.Feed.Connected && tk.Ticks > before.Ticks+2 &&
					len(snap.Instruments) == 1 && snap.Feed.Touchline == 1 && snap.Feed.Depth == 1
			})
			if _, ok := readTick(t, e.conn.Client, feed.InstrumentURI("NSE", "1594")); ok {
				t.Fatal("an unsubscribed instrument is still served")
			}
		})
	}
}

// httpClient connects to the server over streamable HTTP in one protocol era.
func httpClient(t testing.TB, b *serve.Built, version string, opts ...transport.StreamableHTTPCOption) *client.Client {
	return httpClientWith(t, b, version, nil, opts...)
}

// httpClientWith is httpClient with client options (an elicitation handler...).
func httpClientWith(t testing.TB, b *serve.Built, version string, copts []client.ClientOption, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	srv := httptest.NewServer(serve.HTTPHandler(b))
	t.Cleanup(srv.Close)
	tr, err := transport.NewStreamableHTTP(srv.URL+"/mcp", opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, append([]client.ClientOption{client.WithProtocolVersion(version)}, copts...)...)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "era-test", Version: "1"}
	if len(copts) > 0 {
		init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize %s: %v", version, err)
	}
	return c
}

type notes struct {
	mu  sync.Mutex
	got map[string]int
}

func (n *notes) add(method, uri string) {
	n.mu.Lock()
	n.got[method+" "+uri]++
	n.mu.Unlock()
}

func (n *notes) count(method, uri string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.got[method+" "+uri]
}

func callTool(t testing.TB, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	return res
}

// TestResourceUpdatedPerEra: a 2025-11-25 client that subscribes and a
// 2026-07-28 client listening on subscriptions/listen both get
// notifications/resources/updated on ticks (mcp-go v1.2.1 acknowledges a
// listen but delivers resources/updated to none of its sessions; the spine
// serves the listen streams), and a URI the feed does not have is refused.
func TestResourceUpdatedPerEra(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{})
	e.connect()
	uri := feed.InstrumentURI("NSE", "2885")

	//lint:ignore SA1019 the legacy era's standalone GET stream is what delivers resources/updated; this test proves it
	legacy := httpClient(t, e.conn.Built, mcp.ProtocolVersion20251125, transport.WithContinuousListening())
	ln := &notes{got: map[string]int{}}
	legacy.OnNotification(func(n mcp.JSONRPCNotification) {
		u, _ := n.Params.AdditionalFields["uri"].(string)
		ln.add(n.Method, u)
	})
	callTool(t, legacy, "subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|2885"}})
	for _, u := range []string{uri, feed.AllURI} {
		var sr mcp.SubscribeRequest
		sr.Params.URI = u
		//lint:ignore SA1019 resources/subscribe is the legacy-era call under test
		if err := legacy.Subscribe(context.Background(), sr); err != nil {
			t.Fatalf("legacy subscribe: %v", err)
		}
	}
	waitFor(t, 5*time.Second, "resources/updated on the legacy client", func() bool {
		return ln.count(string(mcp.MethodNotificationResourceUpdated), uri) >= 2 &&
			ln.count(string(mcp.MethodNotificationResourceUpdated), feed.AllURI) >= 1
	})

	modern := httpClient(t, e.conn.Built, mcp.LATEST_PROTOCOL_VERSION)
	mn := &notes{got: map[string]int{}}
	modern.OnNotification(func(n mcp.JSONRPCNotification) {
		u, _ := n.Params.AdditionalFields["uri"].(string)
		mn.add(n.Method, u)
	})
	stop, err := modern.ListenAsync(context.Background(), mcp.SubscriptionFilter{ResourceSubscriptions: []string{uri}}, nil)
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	defer stop()
	waitFor(t, 5*time.Second, "subscriptions/acknowledged on the modern client", func() bool {
		mn.mu.Lock()
		defer mn.mu.Unlock()
		for k := range mn.got {
			if len(k) > len("notifications/subscriptions/acknowledged") && k[:len("notifications/subscriptions/acknowledged")] == "notifications/subscriptions/acknowledged" {
				return true
			}
		}
		return false
	})
	waitFor(t, 5*time.Second, "resources/updated on the modern client", func() bool {
		return mn.count(string(mcp.MethodNotificationResourceUpdated), uri) >= 3
	})
	refused := make(chan error, 1)
	stopBad, err := modern.ListenAsync(context.Background(), mcp.SubscriptionFilter{ResourceSubscriptions: []string{"shoonya://nosuch"}},
		func(err error) { refused <- err })
	if err == nil {
		defer stopBad()
		select {
		case err = <-refused:
		case <-time.After(5 * time.Second):
		}
	}
	if err == nil || !strings.Contains(err.Error(), "cannot watch") {
		t.Fatalf("listen on an unknown URI: %v, want a refusal", err)
	}
	var sr mcp.SubscribeRequest
	sr.Params.URI = "shoonya://feed/NSE" // no token
	//lint:ignore SA1019 resources/subscribe is the legacy-era call under test
	if err := legacy.Subscribe(context.Background(), sr); err == nil || !strings.Contains(err.Error(), "cannot watch") {
		t.Fatalf("subscribe to an unknown URI: %v, want a refusal", err)
	}
	_ = io.Discard
}
