package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/metrics"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// Snapshot is the body of the all-instruments resource.
type Snapshot struct {
	Feed        Status `json:"feed"`
	Instruments []Tick `json:"instruments"`
}

// Register adds market_data_feed_resource (all subscribed instruments) and
// the per-instrument template, and has the spine serve their subscriptions
// (resources/subscribe, subscriptions/listen) through the Notifier, which
// delivers through the spine. Call it before the Notifier runs.
func Register(r *serve.Registry, hub *Hub, n *Notifier) {
	s := r.Server
	metrics.Subscriptions("shoonya", func() float64 { return float64(n.Subscriptions()) })
	s.AddResource(mcp.NewResource(AllURI, "market_data_feed_resource",
		mcp.WithResourceDescription("Live snapshot of every instrument subscribed with subscribe_market_feeds: last price, OHLC, volume, open interest, best bid/ask (and 5-level depth when subscribed), merged from the broker websocket. Subscribe to get notifications/resources/updated (at most every 250 ms)."),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			snap := Snapshot{Instruments: []Tick{}}
			if c, ok := hub.Existing(identity.UserID(ctx)); ok {
				snap.Feed = c.Status()
				snap.Instruments = c.Store.All()
			}
			return jsonContents(req.Params.URI, snap)
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate(TemplateURI, "market_data_feed_instrument",
		mcp.WithTemplateDescription("Live snapshot of one subscribed instrument, e.g. shoonya://feed/NSE/22. Subscribe for notifications/resources/updated on every tick."),
		mcp.WithTemplateMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			exch, token, ok := parseInstrumentURI(req.Params.URI)
			if !ok {
				return nil, fmt.Errorf("resource URI must look like shoonya://feed/NSE/22")
			}
			c, ok := hub.Existing(identity.UserID(ctx))
			if !ok {
				return nil, fmt.Errorf("no feed: call subscribe_market_feeds for %s|%s first", exch, token)
			}
			t, ok := c.Store.Snapshot(exch, token)
			if !ok {
				return nil, fmt.Errorf("%s|%s is not subscribed: call subscribe_market_feeds first", exch, token)
			}
			return jsonContents(req.Params.URI, t)
		})
	registerUpdates(r, hub)
	subscribe := func(key, user, uri string) {
		n.Subscribe(key, user, uri)
		if uri == OrdersURI { // watching order updates starts them
			_ = hub.WatchOrders(context.WithoutCancel(hub.ctx), user)
		}
	}
	n.send = r.WatchResources(serve.Watch{Check: checkWatchable, Subscribe: subscribe, Unsubscribe: n.Unsubscribe, Forget: n.Forget})
}

// checkWatchable accepts the feed's URIs: the all-instruments snapshot and
// one instrument's (it may be subscribed later, or on another replica).
func checkWatchable(uri string) error {
	if uri == AllURI || uri == OrdersURI {
		return nil
	}
	if _, _, ok := parseInstrumentURI(uri); ok {
		return nil
	}
	return fmt.Errorf("no such resource: watch %s (every subscribed instrument), %s, e.g. shoonya://feed/NSE/22, or %s", AllURI, TemplateURI, OrdersURI)
}

func parseInstrumentURI(uri string) (exch, token string, ok bool) {
	rest, found := strings.CutPrefix(uri, instrumentPf)
	if !found {
		return "", "", false
	}
	exch, token, ok = strings.Cut(rest, "/")
	return strings.ToUpper(exch), token, ok && exch != "" && token != "" && !strings.Contains(token, "/")
}

func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
}
