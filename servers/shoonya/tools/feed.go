package tools

import (
	"context"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
)

// FeedIn names instruments as EXCHANGE|token.
type FeedIn struct {
	Instruments []string `json:"instruments" jsonschema:"e.g. NSE|22" mcp:"pattern=^[A-Z]{2,4}\\|[0-9A-Za-z]{1,20}$;minItems=1;maxItems=500"`
	Depth       bool     `json:"depth,omitempty" jsonschema:"5-level depth, not touchline"`
}

// FeedOut is the subscription state after the call.
type FeedOut struct {
	ResourceURIs []string    `json:"resource_uris"`
	AllURI       string      `json:"-"` // always feed.AllURI, named in the description
	Feed         feed.Status `json:"feed" jsonschema:"connection state" mcp:"type=object"`
	Touchline    []string    `json:"touchline_subscriptions"`
	Depth        []string    `json:"depth_subscriptions"`
}

// SubscribeOut is subscribe_market_feeds' result: the feeds and the id that
// names this subscription, which unsubscribe_market_feeds takes as
// subscription_id (see normalize.go).
type SubscribeOut struct {
	FeedOut
	SubscriptionID string `json:"subscription_id"`
}

func feedOut(c *feed.Conn, keys []string) FeedOut {
	out := FeedOut{AllURI: feed.AllURI, Feed: c.Status(), ResourceURIs: []string{}}
	for _, k := range keys {
		if e, tk, ok := feed.SplitKey(k); ok {
			out.ResourceURIs = append(out.ResourceURIs, feed.InstrumentURI(e, tk))
		}
	}
	out.Touchline, out.Depth = c.Subscribed()
	if out.Touchline == nil {
		out.Touchline = []string{}
	}
	if out.Depth == nil {
		out.Depth = []string{}
	}
	return out
}

func normKeys(in []string) []string {
	out := make([]string, 0, len(in))
	for _, k := range in {
		out = append(out, strings.ToUpper(strings.TrimSpace(k[:strings.IndexByte(k, '|')+1]))+strings.TrimSpace(k[strings.IndexByte(k, '|')+1:]))
	}
	return out
}

func subscribeTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "subscribe_market_feeds", Title: "Subscribe feeds", Toolset: "feed",
		Description: "Stream live ticks into resources shoonya://feed and shoonya://feed/{exchange}/{token} (full snapshots; reconnects); " +
			"subscribe to those URIs for updates. Idempotent. Stop: unsubscribe_market_feeds. Per replica: read the feed where you subscribed.",
		Hints: toolkit.Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in FeedIn) (SubscribeOut, error) {
		if _, err := d.Sessions.Auth(ctx); err != nil {
			return SubscribeOut{}, err
		}
		keys := normKeys(in.Instruments)
		c := d.Hub.Conn(user(ctx))
		if err := c.Subscribe(ctx, keys, in.Depth); err != nil {
			return SubscribeOut{}, envelope.New(envelope.UpstreamUnavailable, "the broker websocket broke while subscribing; the subscription is kept and will be sent on reconnect").WithCause(err)
		}
		return SubscribeOut{FeedOut: feedOut(c, keys), SubscriptionID: SubscriptionID(keys, in.Depth)}, nil
	})
}

// UnsubscribeIn names what to stop: instruments, or all.
type UnsubscribeIn struct {
	Instruments []string `json:"instruments,omitempty" jsonschema:"e.g. NSE|22" mcp:"pattern=^[A-Z]{2,4}\\|[0-9A-Za-z]{1,20}$;maxItems=500"`
	Depth       bool     `json:"depth,omitempty"`
	All         bool     `json:"all,omitempty"`
}

func unsubscribeTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "unsubscribe_market_feeds", Title: "Unsubscribe feeds", Toolset: "feed",
		Description: "Stop streaming instruments (depth=true: their depth), or all=true; their snapshots leave the resource. Idempotent.",
		Hints:       toolkit.Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in UnsubscribeIn) (FeedOut, error) {
		if !in.All && len(in.Instruments) == 0 {
			return FeedOut{}, envelope.Invalid("instruments", "name the instruments to stop (e.g. NSE|22), or pass all=true")
		}
		c, ok := d.Hub.Existing(user(ctx))
		if !ok {
			return FeedOut{AllURI: feed.AllURI, ResourceURIs: []string{}, Touchline: []string{}, Depth: []string{}}, nil
		}
		batches := []struct {
			keys  []string
			depth bool
		}{{normKeys(in.Instruments), in.Depth}}
		if in.All {
			touch, depth := c.Subscribed()
			batches = batches[:0]
			batches = append(batches, struct {
				keys  []string
				depth bool
			}{touch, false}, struct {
				keys  []string
				depth bool
			}{depth, true})
		}
		for _, b := range batches {
			if len(b.keys) == 0 {
				continue
			}
			if err := c.Unsubscribe(ctx, b.keys, b.depth); err != nil {
				return FeedOut{}, envelope.New(envelope.UpstreamUnavailable, "the broker websocket broke while unsubscribing; the instruments are removed locally and will not be resubscribed").WithCause(err)
			}
		}
		return feedOut(c, nil), nil
	})
}
