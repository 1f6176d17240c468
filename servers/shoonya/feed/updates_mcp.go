package feed

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// OrdersURI is the resource of the caller's order updates and alert firings.
const OrdersURI = "shoonya://orders/updates"

// UpdatesDoc is the body of OrdersURI.
type UpdatesDoc struct {
	envelope.Coverage
	Covers     string              `json:"covers"`
	TimeZone   string              `json:"time_zone"`
	Socket     Status              `json:"socket"` // this replica's broker socket
	Since      string              `json:"since,omitempty"`
	Kept       int                 `json:"kept"`
	MaxKept    int                 `json:"max_kept"`
	Dropped    int                 `json:"dropped"`
	Note       string              `json:"note,omitempty"`
	ThirdParty envelope.ThirdParty `json:"third_party"`
	Updates    []Update            `json:"updates"`
}

const updatesCovers = "order updates (placed, modified, cancelled, filled, rejected) and price-alert firings the broker websocket sent since the subscription started, newest first; " +
	"not replayed across a reconnect or before it: get_order_book has every order's current state"

// registerUpdates adds OrdersURI. Reading or subscribing to it starts the
// caller's broker socket and its order-update subscription.
func registerUpdates(r *serve.Registry, hub *Hub) {
	r.Server.AddResource(mcp.NewResource(OrdersURI, "order_updates_resource",
		mcp.WithResourceDescription("Your order updates (status, fills with quantity and average price, reject reason, exchange time in IST) and price-alert firings from the broker websocket, newest first, the last 200. Subscribe for notifications/resources/updated on each."),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			user := serve.UserID(ctx)
			doc := UpdatesDoc{Covers: updatesCovers, TimeZone: Zone, MaxKept: MaxUpdates,
				ThirdParty: envelope.ThirdParty{"updates[].reject_reason", "updates[].remarks"}}
			if err := hub.WatchOrders(ctx, user); err != nil {
				doc.Note = "the broker websocket broke while subscribing to order updates; it reconnects and subscribes again by itself"
			}
			if c, ok := hub.Existing(user); ok {
				doc.Socket = c.Status()
				if _, logged := hub.authFor(user); !logged {
					doc.Note = "not logged in: call connect_shoonya_broker; order updates start with the session"
				}
			}
			log, err := hub.Updates(ctx, user)
			if err != nil {
				return nil, fmt.Errorf("order updates are unreadable in the shared state (%v); get_order_book has every order's state", err)
			}
			doc.Since, doc.Dropped, doc.Updates, doc.Kept = log.Since, log.Dropped, log.Updates, len(log.Updates)
			switch {
			case log.Dropped > 0:
				doc.Coverage = envelope.Cut(envelope.Capped, fmt.Sprintf("%d older updates", log.Dropped), "get_order_book and get_trade_book hold every order and fill of the day")
			case len(log.Updates) == 0:
				doc.Coverage = envelope.Nothing("no order update or alert firing yet since the subscription started")
			default:
				doc.Coverage = envelope.Whole()
			}
			return jsonContents(req.Params.URI, doc)
		})
}

// Changed tells this replica's subscribers of user's uri, and the other
// replicas through Relay (their clients may watch what this socket heard).
func (n *Notifier) Changed(user, uri string) {
	if n.Relay != nil {
		n.Relay(user, uri)
	}
	n.UpdatedURI(user, uri)
}
