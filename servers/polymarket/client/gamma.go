package client

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Gamma page caps (ref: polymarket.md §1.2): limit is silently clamped to 100,
// offset past 10,000 is refused with 422.
const (
	MaxPage   = 100
	MaxOffset = 10000
)

// MarketPage is one page of /markets/keyset.
type MarketPage struct {
	Markets    []Market `json:"markets"`
	NextCursor string   `json:"next_cursor"`
}

// EventPage is one page of /events/keyset.
type EventPage struct {
	Events     []Event `json:"events"`
	NextCursor string  `json:"next_cursor"`
}

// Markets lists markets with offset paging (legacy GET /markets: a bare array).
func (c *Client) Markets(ctx context.Context, q url.Values) ([]Market, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list markets", "/markets", q)
	if err != nil {
		return nil, src, offsetHint(err)
	}
	m, err := decode[[]Market]("list markets", b)
	return m, src, err
}

// MarketsKeyset lists markets with keyset paging (GET /markets/keyset:
// after_cursor in, next_cursor out, absent on the last page).
func (c *Client) MarketsKeyset(ctx context.Context, q url.Values) (MarketPage, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list markets", "/markets/keyset", q)
	if err != nil {
		return MarketPage{}, src, err
	}
	p, err := decode[MarketPage]("list markets", b)
	return p, src, err
}

// Market fetches one market by numeric id (/markets/{id}), slug
// (/markets/slug/{slug}) or conditionId (/markets?condition_ids=, open then closed).
func (c *Client) Market(ctx context.Context, ident string) (Market, Source, error) {
	ident = strings.TrimSpace(ident)
	kind, err := ClassifyMarketID("identifier", ident)
	if err != nil {
		return Market{}, Source{}, err
	}
	var b []byte
	var src Source
	switch kind {
	case KindID:
		b, src, err = c.get(ctx, c.gamma, "get market", "/markets/"+url.PathEscape(ident), nil)
	case KindSlug:
		b, src, err = c.get(ctx, c.gamma, "get market", "/markets/slug/"+url.PathEscape(ident), nil)
	case KindCondition:
		// list filters default to open markets: ask again with closed=true
		for _, closed := range []string{"false", "true"} {
			var l []Market
			l, src, err = c.Markets(ctx, url.Values{"condition_ids": {ident}, "closed": {closed}})
			if err != nil || len(l) > 0 {
				if len(l) > 0 {
					return l[0], src, nil
				}
				break
			}
		}
		if err == nil {
			return Market{}, src, envelope.New(envelope.NotFound, "no Polymarket market has conditionId %s; search_markets finds markets by text", ident)
		}
	}
	if err != nil {
		return Market{}, src, notFoundHint(err, "no Polymarket market is "+ident+"; search_markets or list_markets find ids and slugs")
	}
	if m, ok := c.markets.get(src.body); ok {
		return m, src, nil
	}
	m, err := decode[Market]("get market", b)
	if err == nil && m.ID != "" {
		c.markets.put(src.body, m)
	}
	if err == nil && m.ID == "" {
		err = envelope.New(envelope.UpstreamError, "polymarket get market: the answer has no market id; try again shortly").WithRetryable(true)
	}
	return m, src, err
}

// Events lists events with offset paging (GET /events).
func (c *Client) Events(ctx context.Context, q url.Values) ([]Event, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list events", "/events", q)
	if err != nil {
		return nil, src, offsetHint(err)
	}
	e, err := decode[[]Event]("list events", b)
	return e, src, err
}

// EventsKeyset lists events with keyset paging (GET /events/keyset).
func (c *Client) EventsKeyset(ctx context.Context, q url.Values) (EventPage, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list events", "/events/keyset", q)
	if err != nil {
		return EventPage{}, src, err
	}
	p, err := decode[EventPage]("list events", b)
	return p, src, err
}

// Event fetches one event by numeric id or slug.
func (c *Client) Event(ctx context.Context, ident string) (Event, Source, error) {
	ident = strings.TrimSpace(ident)
	kind, err := ClassifyEventID("identifier", ident)
	if err != nil {
		return Event{}, Source{}, err
	}
	path := "/events/" + url.PathEscape(ident)
	if kind == KindSlug {
		path = "/events/slug/" + url.PathEscape(ident)
	}
	b, src, err := c.get(ctx, c.gamma, "get event", path, nil)
	if err != nil {
		return Event{}, src, notFoundHint(err, "no Polymarket event is "+ident+"; list_events or search_markets find ids and slugs")
	}
	e, err := decode[Event]("get event", b)
	if err == nil && e.ID == "" {
		err = envelope.New(envelope.UpstreamError, "polymarket get event: the answer has no event id; try again shortly").WithRetryable(true)
	}
	return e, src, err
}

// Search runs GET /public-search.
func (c *Client) Search(ctx context.Context, q url.Values) (Search, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "search", "/public-search", q)
	if err != nil {
		return Search{}, src, err
	}
	s, err := decode[Search]("search", b)
	return s, src, err
}

// Comments lists comments on a market, event or series (GET /comments with
// parent_entity_type + parent_entity_id).
func (c *Client) Comments(ctx context.Context, q url.Values) ([]Comment, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list comments", "/comments", q)
	if err != nil {
		return nil, src, err
	}
	l, err := decode[[]Comment]("list comments", b)
	return l, src, err
}

func offsetHint(err error) error {
	var e *envelope.Error
	if errors.As(err, &e) && e.Details["http_status"] == 422 {
		e.Message += "; Gamma refuses offsets past 10000: narrow the filters or page with paging=keyset"
	}
	return err
}

func notFoundHint(err error, msg string) error {
	var e *envelope.Error
	if errors.As(err, &e) && e.Code == envelope.NotFound {
		e.Message = msg
	}
	return err
}
