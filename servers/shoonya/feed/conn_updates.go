package feed

import (
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

func isUpdateFrame(t string) bool {
	switch t {
	case frameOrder, frameAlert, frameOrdersAck, frameOrdersStop:
		return true
	}
	return false
}

// takeUpdate handles a frame that is not a tick: the order-subscription
// acks, and order updates and alert firings (handed to Updates).
func (c *Conn) takeUpdate(t string, data []byte) {
	switch t {
	case frameOrdersAck, frameOrdersStop:
		c.mu.Lock()
		c.ordersAck = t == frameOrdersAck
		c.mu.Unlock()
		return
	}
	if c.Updates != nil {
		c.Updates(data)
	}
}

// ordersFrame is the order-update subscription: {"t":"o","actid":...}
// (ShoonyaApi-py README subscribe_orders; NorenApi.py sends {'t': 'o'} and
// the README's websocket table names actid).
func ordersFrame(a *noren.Auth) []byte {
	b, _ := json.Marshal(map[string]string{"t": "o", "actid": a.ActID})
	return b
}

// WatchOrders asks for order updates (and alert firings) on this socket,
// now if it is up and again after every reconnect.
func (c *Conn) WatchOrders(ctx context.Context) error {
	c.mu.Lock()
	already := c.orders
	c.orders = true
	ws := c.ws
	c.mu.Unlock()
	if already || ws == nil {
		return nil
	}
	a, ok := c.auth()
	if !ok {
		return nil // the next login's connect subscribes
	}
	return c.writeFrame(ctx, ws, ordersFrame(a))
}

// resubscribeOrders sends the order subscription on a fresh connection when
// it is wanted (Noren forgets subscriptions with the socket).
func (c *Conn) resubscribeOrders(ctx context.Context, ws *websocket.Conn, a *noren.Auth) error {
	c.mu.Lock()
	want := c.orders
	c.mu.Unlock()
	if !want {
		return nil
	}
	return c.writeFrame(ctx, ws, ordersFrame(a))
}

func (c *Conn) writeFrame(ctx context.Context, ws *websocket.Conn, b []byte) error {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, b)
}
