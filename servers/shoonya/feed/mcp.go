package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// Snapshot is the body of the all-instruments resource.
type Snapshot struct {
	Feed        Status `json:"feed"`
	Instruments []Tick `json:"instruments"`
}

// Register adds market_data_feed_resource (all subscribed instruments), the
// per-instrument template, and the subscription hooks that feed the Notifier.
func Register(s *server.MCPServer, hub *Hub, n *Notifier) {
	s.AddResource(mcp.NewResource(AllURI, "market_data_feed_resource",
		mcp.WithResourceDescription("Live snapshot of every instrument subscribed with subscribe_market_feeds: last price, OHLC, volume, open interest, best bid/ask (and 5-level depth when subscribed), merged from the broker websocket. Subscribe to get notifications/resources/updated (at most every 250 ms)."),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			snap := Snapshot{Instruments: []Tick{}}
			if c, ok := hub.Existing(serve.UserID(ctx)); ok {
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
			c, ok := hub.Existing(serve.UserID(ctx))
			if !ok {
				return nil, fmt.Errorf("no feed: call subscribe_market_feeds for %s|%s first", exch, token)
			}
			t, ok := c.Store.Snapshot(exch, token)
			if !ok {
				return nil, fmt.Errorf("%s|%s is not subscribed: call subscribe_market_feeds first", exch, token)
			}
			return jsonContents(req.Params.URI, t)
		})
	hooks := s.GetHooks()
	if hooks == nil {
		// serve.Build sets no hooks; install a set before serving starts.
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(s)
	}
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if cs := server.ClientSessionFromContext(ctx); cs != nil {
			n.Subscribe(cs.SessionID(), serve.UserID(ctx), req.Params.URI)
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if cs := server.ClientSessionFromContext(ctx); cs != nil {
			n.Unsubscribe(cs.SessionID(), req.Params.URI)
		}
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		n.Forget(cs.SessionID())
	})
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
