package tools_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

func readUpdates(t testing.TB, c *client.Client) feed.UpdatesDoc {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = feed.OrdersURI
	res, err := c.ReadResource(context.Background(), req)
	if err != nil || len(res.Contents) == 0 {
		t.Fatalf("read %s: %v", feed.OrdersURI, err)
	}
	var doc feed.UpdatesDoc
	if err := json.Unmarshal([]byte(res.Contents[0].(mcp.TextResourceContents).Text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func findUpdate(doc feed.UpdatesDoc, id, status string) (feed.Update, bool) {
	for _, u := range doc.Updates {
		if u.OrderID == id && u.Status == status {
			return u, true
		}
	}
	return feed.Update{}, false
}

func placeResting(t testing.TB, call func(string, map[string]any) *mcp.CallToolResult, key string) string {
	t.Helper()
	out := servetest.Decode[tools.PlaceOut](t, call("place_order", map[string]any{
		"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "side": "BUY", "quantity": 2,
		"order_type": "LIMIT", "price": 1300, "product": "CNC", "idempotency_key": key,
	}))
	if out.OrderID == "" {
		t.Fatalf("place: %+v", out)
	}
	return out.OrderID
}

// TestOrderUpdatesPerEra: a 2025-11-25 client subscribed with
// resources/subscribe and a 2026-07-28 client listening on
// subscriptions/listen both hear notifications/resources/updated for
// shoonya://orders/updates when an order is placed, filled and cancelled,
// and the resource holds each state with fills, times in IST and its
// coverage, in both broker login generations.
func TestOrderUpdatesPerEra(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{})
			e.connect()
			//lint:ignore SA1019 the legacy era's standalone GET stream is what delivers resources/updated; this test proves it
			legacy := httpClient(t, e.conn.Built, mcp.ProtocolVersion20251125, transport.WithContinuousListening())
			ln := &notes{got: map[string]int{}}
			legacy.OnNotification(func(n mcp.JSONRPCNotification) {
				u, _ := n.Params.AdditionalFields["uri"].(string)
				ln.add(n.Method, u)
			})
			var sr mcp.SubscribeRequest
			sr.Params.URI = feed.OrdersURI
			//lint:ignore SA1019 resources/subscribe is the legacy-era call under test
			if err := legacy.Subscribe(context.Background(), sr); err != nil {
				t.Fatalf("legacy subscribe: %v", err)
			}
			modern := httpClient(t, e.conn.Built, mcp.LATEST_PROTOCOL_VERSION)
			mn := &notes{got: map[string]int{}}
			modern.OnNotification(func(n mcp.JSONRPCNotification) {
				u, _ := n.Params.AdditionalFields["uri"].(string)
				mn.add(n.Method, u)
			})
			stop, err := modern.ListenAsync(context.Background(), mcp.SubscriptionFilter{ResourceSubscriptions: []string{feed.OrdersURI}}, nil)
			if err != nil {
				t.Fatalf("listen: %v", err)
			}
			defer stop()
			waitFor(t, 5*time.Second, "the broker's order-update ack", func() bool {
				return readUpdates(t, modern).Socket.OrderUpdates
			})
			if doc := readUpdates(t, legacy); !doc.Complete || doc.Empty == "" || len(doc.Updates) != 0 || doc.TimeZone != feed.Zone {
				t.Fatalf("before any order: %+v", doc)
			}

			filled := placeResting(t, e.call, "upd-fill-"+string(era))
			if err := e.fake.FillOrder(filled, 1301.5); err != nil {
				t.Fatal(err)
			}
			cancelled := placeResting(t, e.call, "upd-cancel-"+string(era))
			e.call("cancel_order", map[string]any{"order_id": cancelled})
			rejected := placeResting(t, e.call, "upd-reject-"+string(era))
			if err := e.fake.RejectOrder(rejected, "RED:Margin Shortfall:INR 12.50 Available:INR 0"); err != nil {
				t.Fatal(err)
			}

			upd := string(mcp.MethodNotificationResourceUpdated)
			waitFor(t, 5*time.Second, "resources/updated in both eras", func() bool {
				return ln.count(upd, feed.OrdersURI) >= 1 && mn.count(upd, feed.OrdersURI) >= 1
			})
			var doc feed.UpdatesDoc
			waitFor(t, 5*time.Second, "every state in the resource", func() bool {
				doc = readUpdates(t, legacy)
				_, f := findUpdate(doc, filled, "COMPLETE")
				_, c := findUpdate(doc, cancelled, "CANCELED")
				_, r := findUpdate(doc, rejected, "REJECTED")
				return f && c && r
			})
			fill, _ := findUpdate(doc, filled, "COMPLETE")
			if fill.Event != "Fill" || fill.Fill == nil || *fill.Fill.Quantity != 2 || *fill.Fill.Price != 1301.5 ||
				*fill.AveragePrice != 1301.5 || *fill.FilledQuantity != 2 || *fill.PendingQuantity != 0 || fill.Side != "BUY" || fill.Product != "CNC" {
				t.Fatalf("fill update: %+v (fill %+v)", fill, fill.Fill)
			}
			if !strings.HasSuffix(fill.ExchangeTime, "+05:30") || !strings.HasSuffix(fill.Fill.Time, "+05:30") || !strings.HasSuffix(fill.ReceivedAt, "+05:30") {
				t.Fatalf("times not in IST: %+v", fill)
			}
			if rej, _ := findUpdate(doc, rejected, "REJECTED"); !strings.Contains(rej.RejectReason, "Margin Shortfall") {
				t.Fatalf("reject update: %+v", rej)
			}
			if open, ok := findUpdate(doc, cancelled, "OPEN"); !ok || *open.PendingQuantity != 2 {
				t.Fatalf("the open state of the cancelled order: %+v %v", open, ok)
			}
			if !doc.Complete || doc.Kept != len(doc.Updates) || doc.MaxKept != feed.MaxUpdates || doc.Since == "" || doc.Dropped != 0 ||
				!strings.Contains(strings.Join(doc.ThirdParty, ","), "updates[].reject_reason") {
				t.Fatalf("resource coverage: %+v", doc)
			}
			if doc.Updates[0].ReceivedAt < doc.Updates[len(doc.Updates)-1].ReceivedAt {
				t.Fatal("updates are not newest first")
			}
		})
	}
}

// TestOrderUpdatesAcrossReplicas: two servers on one real redis-server.
// The order's socket is on replica A (its client subscribed there); replica
// B cannot reach the broker websocket at all, so its clients, in either
// protocol era, hear resources/updated only through the relay, and read
// the update A's socket received from B.
func TestOrderUpdatesAcrossReplicas(t *testing.T) {
	rs := redistest.StartServer(t)
	key := stateKey(t)
	for i, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			a := newEnv(t, era, envOpt{extra: map[string]string{
				"MCPFLEET_REDIS_URL": "redis://" + rs.Addr() + "/" + strconv.Itoa(i), "MCPFLEET_STATE_KEY": key,
			}})
			a.connect()
			if !readUpdatesConn(t, a.conn).Complete {
				t.Fatal("A's resource")
			}
			waitFor(t, 5*time.Second, "A's order-update ack", func() bool { return readUpdatesConn(t, a.conn).Socket.OrderUpdates })

			t.Setenv("SHOONYA_WS_URL", "ws://127.0.0.1:1/") // B's own socket never connects
			b := servetest.New(t, app())                    // replica B
			//lint:ignore SA1019 the legacy era's standalone GET stream is what delivers resources/updated
			legacy := httpClient(t, b.Built, mcp.ProtocolVersion20251125, transport.WithContinuousListening())
			ln := &notes{got: map[string]int{}}
			legacy.OnNotification(func(n mcp.JSONRPCNotification) {
				u, _ := n.Params.AdditionalFields["uri"].(string)
				ln.add(n.Method, u)
			})
			var sr mcp.SubscribeRequest
			sr.Params.URI = feed.OrdersURI
			//lint:ignore SA1019 resources/subscribe is the legacy-era call under test
			if err := legacy.Subscribe(context.Background(), sr); err != nil {
				t.Fatal(err)
			}
			modern := httpClient(t, b.Built, mcp.LATEST_PROTOCOL_VERSION)
			mn := &notes{got: map[string]int{}}
			modern.OnNotification(func(n mcp.JSONRPCNotification) {
				u, _ := n.Params.AdditionalFields["uri"].(string)
				mn.add(n.Method, u)
			})
			stop, err := modern.ListenAsync(context.Background(), mcp.SubscriptionFilter{ResourceSubscriptions: []string{feed.OrdersURI}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			time.Sleep(200 * time.Millisecond) // B's Redis subscription settles

			id := placeResting(t, a.call, "replica-upd-"+string(era))
			if err := a.fake.FillOrder(id, 1299); err != nil {
				t.Fatal(err)
			}
			upd := string(mcp.MethodNotificationResourceUpdated)
			waitFor(t, 10*time.Second, "resources/updated on B in both eras", func() bool {
				return ln.count(upd, feed.OrdersURI) >= 1 && mn.count(upd, feed.OrdersURI) >= 1
			})
			waitFor(t, 5*time.Second, "the fill read through B", func() bool {
				u, ok := findUpdate(readUpdates(t, modern), id, "COMPLETE")
				return ok && u.AveragePrice != nil && *u.AveragePrice == 1299
			})
			if readUpdates(t, legacy).Socket.Connected {
				t.Fatal("B's socket connected: the test would not prove the relay")
			}
			// The log keeps each event once.
			doc := readUpdates(t, legacy)
			seen := map[string]int{}
			for _, u := range doc.Updates {
				if u.OrderID == id {
					seen[u.Status+"/"+u.Event]++
				}
			}
			for k, n := range seen {
				if n != 1 {
					t.Fatalf("%s kept %d times: %+v", k, n, doc.Updates)
				}
			}
		})
	}
}

func readUpdatesConn(t testing.TB, c *servetest.Conn) feed.UpdatesDoc {
	t.Helper()
	return readUpdates(t, c.Client)
}
