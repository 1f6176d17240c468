package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/feed"
)

const setFeed = "feed"

// EnvMarketWSURL overrides the CLOB market websocket.
const EnvMarketWSURL = "POLYMARKET_MARKET_WS_URL"

// DefaultMarketWSURL is the public CLOB market channel
// (docs.polymarket.com/market-data/websocket/overview).
const DefaultMarketWSURL = "wss://ws-subscriptions-clob.polymarket.com/ws/market"

// firstBookWait is how long subscribe waits for the socket's first books.
const firstBookWait = 3 * time.Second

// FeedSubIn names what to stream: markets (resolved to both outcome
// tokens) and/or outcome token ids.
type FeedSubIn struct {
	Markets  []string `json:"markets,omitempty" mcp:"maxItems=10" jsonschema:"market ids, slugs or condition ids: both outcomes"`
	TokenIDs []string `json:"token_ids,omitempty" mcp:"maxItems=20" jsonschema:"outcome token ids (get_market outcomes[].token_id)"`
}

// FeedUnsubIn names what to stop; all stops everything.
type FeedUnsubIn struct {
	Markets  []string `json:"markets,omitempty" mcp:"maxItems=10"`
	TokenIDs []string `json:"token_ids,omitempty" mcp:"maxItems=100"`
	All      bool     `json:"all,omitempty"`
}

// FeedReadIn optionally narrows the read to one market or token.
type FeedReadIn struct {
	ID string `json:"id,omitempty" mcp:"maxLength=90" jsonschema:"condition or token id; none: all"`
}

// FeedOut is the caller's feed: quotes, the socket's state and the URIs to
// watch.
type FeedOut struct {
	envelope.Coverage
	Quotes    []feed.Quote `json:"quotes"`
	Socket    feed.Status  `json:"socket"`
	Resources []string     `json:"resources,omitempty"`
	Added     []string     `json:"added,omitempty"`
	Total     int          `json:"subscribed"`
	// ThirdParty marks the outcome names, which the market's writers chose.
	ThirdParty envelope.ThirdParty `json:"third_party,omitempty"`
}

// FeedUnsubOut is what an unsubscribe did.
type FeedUnsubOut struct {
	Removed []string `json:"removed"`
	Left    int      `json:"still_subscribed"`
}

// FeedTools are the live-feed tools over f.
func FeedTools(s *Service, f *feed.Feed) []toolkit.Tool {
	return []toolkit.Tool{s.subscribeFeed(f), s.unsubscribeFeed(f), s.getFeed(f)}
}

func (s *Service) subscribeFeed(f *feed.Feed) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "subscribe_market_feed", Title: "Subscribe market feed", Toolset: setFeed, Hints: toolkit.RemoteRead,
		Description: "Stream live books/trades (Polymarket CLOB websocket) of markets or token_ids into resources polymarket://feed and polymarket://feed/market/{condition_id|token_id}; subscribe to them for updates. Returns first quotes. Idempotent; per replica; reconnects."},
		limited(s, publicCall, func(ctx context.Context, in FeedSubIn) (FeedOut, error) {
			if len(in.Markets)+len(in.TokenIDs) == 0 {
				return FeedOut{}, envelope.Invalid("token_ids", "name markets (id, slug or condition id) or token_ids to stream; get_market lists a market's outcome token ids")
			}
			assets, conds, err := s.feedAssets(ctx, in.Markets, in.TokenIDs)
			if err != nil {
				return FeedOut{}, err
			}
			user := serve.UserID(ctx)
			before := map[string]bool{}
			for _, a := range f.Assets(user) {
				before[a] = true
			}
			if err := f.Subscribe(user, assets); err != nil {
				if errors.Is(err, feed.ErrTooMany) {
					return FeedOut{}, envelope.Invalid("token_ids", "%v: unsubscribe_market_feed some first", err)
				}
				return FeedOut{}, err
			}
			var added []string
			for _, a := range assets {
				if !before[a.TokenID] {
					added = append(added, a.TokenID)
				}
			}
			if err := waitFirstBooks(ctx, f, assets); err != nil {
				f.Unsubscribe(user, added) // a call that failed leaves nothing behind
				return FeedOut{}, err
			}
			out := feedOut(f, user, "")
			out.Added = added
			out.Resources = append([]string{feed.AllURI}, conds...)
			return out, nil
		}))
}

// feedAssets resolves markets and token ids through Gamma to their outcome
// tokens, condition id and outcome names (a token Gamma does not know, or
// one of a resolved market, has no live book: refused here rather than
// waited for); conds are the markets' resource URIs.
func (s *Service) feedAssets(ctx context.Context, markets, tokens []string) (assets []feed.Asset, conds []string, err error) {
	seen := map[string]bool{}
	add := func(ident string, only string) error {
		m, _, err := s.c.Market(ctx, ident)
		if err != nil {
			return err
		}
		if len(m.ClobTokenIDs) == 0 {
			return envelope.New(envelope.NotFound, "market %s has no CLOB tokens (not traded on the order book): nothing to stream", m.ID)
		}
		if m.Closed {
			return envelope.Invalid("markets", "market %s is closed: it has no live book to stream; get_price_history gives its history", m.ID)
		}
		cond := strings.ToLower(m.ConditionID)
		if uri := feed.MarketURI(cond); !slices.Contains(conds, uri) {
			conds = append(conds, uri)
		}
		for i, t := range m.ClobTokenIDs {
			if only != "" && t != only {
				continue
			}
			outcome := ""
			if i < len(m.Outcomes) {
				outcome = envelope.CleanThirdParty(clipText(m.Outcomes[i], 60))
			}
			if !seen[t] {
				seen[t] = true
				assets = append(assets, feed.Asset{TokenID: t, Condition: cond, Outcome: outcome})
			}
		}
		return nil
	}
	for _, t := range tokens {
		t = strings.TrimSpace(t)
		if kind, err := client.ClassifyMarketID("token_ids", t); err != nil || kind != client.KindToken {
			return nil, nil, envelope.Invalid("token_ids", "token_ids holds outcome token ids (long decimals, get_market outcomes[].token_id); got %q: pass markets for an id, slug or condition id", clipText(t, 80))
		}
		if err := add(t, t); err != nil {
			return nil, nil, err
		}
	}
	for _, ident := range markets {
		if err := add(ident, ""); err != nil {
			return nil, nil, err
		}
	}
	return assets, conds, nil
}

// waitFirstBooks waits (bounded) for a book of each asset; a socket that
// cannot connect in that time is an error naming its cause.
func waitFirstBooks(ctx context.Context, f *feed.Feed, assets []feed.Asset) error {
	deadline := time.NewTimer(firstBookWait)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		have := 0
		for _, a := range assets {
			if q, ok := f.Store.Get(a.TokenID); ok && q.HaveBook {
				have++
			}
		}
		if have == len(assets) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			st := f.Conn.Status()
			if !st.Connected && st.LastError != "" {
				return envelope.New(envelope.UpstreamUnavailable, "Polymarket's market websocket did not connect (%s); nothing was subscribed: try again shortly",
					clipText(st.LastError, 160)).WithRetryable(true).WithRetryAfter(5 * time.Second)
			}
			return nil // connected, books on their way: the coverage says which are missing
		case <-tick.C:
		}
	}
}

// feedOut is user's quotes (one id's, or all) with their coverage.
func feedOut(f *feed.Feed, user, id string) FeedOut {
	out := FeedOut{Socket: f.Conn.Status(), Total: len(f.Assets(user))}
	if id == "" {
		out.Quotes = f.Quotes(user)
	} else {
		out.Quotes = f.Lookup(user, id)
	}
	if out.Quotes == nil {
		out.Quotes = []feed.Quote{}
	}
	var noBook int
	for _, q := range out.Quotes {
		if !q.HaveBook {
			noBook++
		}
		if q.Outcome != "" {
			out.ThirdParty = envelope.ThirdParty{"quotes[].outcome"}
		}
	}
	switch {
	case len(out.Quotes) == 0:
		out.Coverage = envelope.Nothing("nothing subscribed on this server: subscribe_market_feed first (subscriptions are per replica)")
	case !out.Socket.Connected:
		out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("live updates: the socket is reconnecting (%s); quotes are as last received", clipText(out.Socket.LastError, 120)),
			"read again in a few seconds; get_order_books gives a fresh REST book meanwhile")
	case noBook > 0:
		out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("%d of %d tokens have no book yet", noBook, len(out.Quotes)),
			"read polymarket://feed or call get_market_feed again in a second")
	default:
		out.Coverage = envelope.Whole()
	}
	return out
}

func (s *Service) unsubscribeFeed(f *feed.Feed) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "unsubscribe_market_feed", Title: "Unsubscribe market feed", Toolset: setFeed, Hints: toolkit.RemoteRead,
		Description: "Stop streaming markets (condition ids) or token_ids, or all=true. Idempotent."},
		func(ctx context.Context, in FeedUnsubIn) (FeedUnsubOut, error) {
			user := serve.UserID(ctx)
			var ids []string
			if !in.All {
				if len(in.Markets)+len(in.TokenIDs) == 0 {
					return FeedUnsubOut{}, envelope.Invalid("all", "name markets or token_ids to stop, or all=true")
				}
				ids = append(ids, in.TokenIDs...)
				for _, m := range in.Markets {
					cond := strings.ToLower(strings.TrimSpace(m))
					if kind, err := client.ClassifyMarketID("markets", cond); err != nil || kind != client.KindCondition {
						return FeedUnsubOut{}, envelope.Invalid("markets", "markets here are condition ids (0x + 64 hex, as subscribe_market_feed's resources name them); got %q", clipText(m, 80))
					}
					for _, q := range f.Lookup(user, cond) {
						ids = append(ids, q.AssetID)
					}
				}
				if len(ids) == 0 { // nothing of that was streamed: idempotent
					return FeedUnsubOut{Removed: []string{}, Left: len(f.Assets(user))}, nil
				}
			}
			removed := f.Unsubscribe(user, ids)
			if removed == nil {
				removed = []string{}
			}
			return FeedUnsubOut{Removed: removed, Left: len(f.Assets(user))}, nil
		})
}

func (s *Service) getFeed(f *feed.Feed) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_market_feed", Title: "Get market feed", Toolset: setFeed, Hints: toolkit.RemoteRead,
		Description: "Quotes from subscribe_market_feed (all, or one id): bid/ask, mid, spread, last trade, tick, top 5 levels; as resource polymarket://feed."},
		func(ctx context.Context, in FeedReadIn) (FeedOut, error) {
			id := strings.ToLower(strings.TrimSpace(in.ID))
			if id != "" {
				if _, ok := feed.ParseURI(feed.MarketURI(id)); !ok {
					return FeedOut{}, envelope.Invalid("id", "id is a condition id (0x + 64 hex) or an outcome token id; got %q", clipText(in.ID, 80))
				}
			}
			return feedOut(f, serve.UserID(ctx), id), nil
		})
}
