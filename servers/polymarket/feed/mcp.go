package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/metrics"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// Snapshot is the body of a feed resource.
type Snapshot struct {
	Socket Status  `json:"socket"`
	Quotes []Quote `json:"quotes"`
	// Note says what a missing quote means (not subscribed, or on another
	// replica).
	Note string `json:"note,omitempty"`
}

// Register adds the feed's resources and has the spine serve their
// subscriptions in both protocol eras through the notifier; the other
// replicas' changes arrive through Redis (serve.Registry.ShareResourceUpdates).
// It starts the notifier under ctx.
func Register(ctx context.Context, r *serve.Registry, f *Feed) {
	s := r.Server
	metrics.Subscriptions("polymarket", func() float64 { return float64(f.N.Subscriptions()) })
	s.AddResource(mcp.NewResource(AllURI, "polymarket_market_feed",
		mcp.WithResourceDescription("Live quotes of every token you subscribed with subscribe_market_feed: best bid/ask, mid, spread, last trade, tick size, top 5 levels, from Polymarket's public CLOB market websocket. Subscribe for notifications/resources/updated (at most every 250 ms)."),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			snap := Snapshot{Socket: f.Conn.Status(), Quotes: f.Quotes(serve.UserID(ctx))}
			if len(snap.Quotes) == 0 {
				snap.Note = "nothing subscribed on this server: call subscribe_market_feed"
			}
			return jsonContents(req.Params.URI, snap)
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate(TemplateURI, "polymarket_market_feed_market",
		mcp.WithTemplateDescription("Live quotes of one subscribed market (a lowercase condition id: both outcomes) or outcome (a token id), e.g. polymarket://feed/market/0x5f65…; subscribe for notifications/resources/updated on every change."),
		mcp.WithTemplateMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			id, ok := ParseURI(req.Params.URI)
			if !ok {
				return nil, fmt.Errorf("%s", uriHelp(req.Params.URI))
			}
			qs := f.Lookup(serve.UserID(ctx), id)
			if len(qs) == 0 {
				return nil, fmt.Errorf("%s is not subscribed on this server: call subscribe_market_feed first (a subscription made on another replica is read there)", id)
			}
			return jsonContents(req.Params.URI, Snapshot{Socket: f.Conn.Status(), Quotes: qs})
		})
	f.N.SetSender(r.WatchResources(f.N.Watch(CheckURI)))
	// A client watching on one replica hears the changes the socket of another receives.
	f.Relay = r.ShareResourceUpdates(ctx, "polymarket", f.N.Changed)
	go f.N.Run(ctx)
}

// CheckURI accepts the feed's URIs (a market may be subscribed later, or
// on another replica) and names them when it refuses.
func CheckURI(uri string) error {
	if uri == AllURI {
		return nil
	}
	if _, ok := ParseURI(uri); ok {
		return nil
	}
	return fmt.Errorf("%s", uriHelp(uri))
}

func uriHelp(uri string) string {
	id, _ := strings.CutPrefix(uri, marketPf)
	if strings.HasPrefix(id, "0x") && isCondition(strings.ToLower(id)) {
		return "condition ids are lowercase in feed URIs: watch " + MarketURI(strings.ToLower(id))
	}
	return "no such resource: watch " + AllURI + " (every subscribed token) or " + TemplateURI + " with a condition id (0x + 64 lowercase hex) or a token id"
}

func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
}
