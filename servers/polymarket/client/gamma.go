package client

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// MaxPage is Gamma's page size: limit is silently clamped to 100 on the list
// routes and on /events/keyset (source: nautilus_trader#4086; polyoxide
// docs/specs/gamma/OBSERVED.md, probed 2026-09-23: limit 101 and 500 return 100).
const MaxPage = 100

// MaxOffset is the deepest offset Gamma's legacy /markets and /events accept:
// past it they answer 422 "offset too large, use /markets/keyset for deeper
// pagination" (polyoxide spec-deviations "Gamma: offset caps", observed
// 2026-10-02; a public historical-data cookbook: offset 2000 → 200, 3000 →
// 422). The tools page on the keyset routes and never send an offset; the
// figure is kept for messages and the fake.
const MaxOffset = 2000

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

// MarketsKeyset lists markets with keyset paging (GET /markets/keyset:
// after_cursor in, {"markets":[…],"next_cursor":"…"} out, next_cursor absent
// on the last page; the same filters as the legacy /markets, condition_ids and
// clob_token_ids included: a public historical-data cookbook, 2026-08-11, from
// Gamma's own openapi.json). Like /markets it lists open markets only unless
// closed=true is sent (polyoxide docs).
func (c *Client) MarketsKeyset(ctx context.Context, q url.Values) (MarketPage, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list markets", "/markets/keyset", q)
	if err != nil {
		return MarketPage{}, src, err
	}
	p, err := decode[MarketPage]("list markets", b)
	return p, src, err
}

// Market fetches one market by numeric id (/markets/{id}), slug
// (/markets/slug/{slug}), conditionId or outcome token id (/markets/keyset
// with condition_ids or clob_token_ids, open then closed).
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
		b, src, err = c.get(ctx, c.gamma, "get market", "/markets/"+url.PathEscape(ident), withTags())
	case KindSlug:
		b, src, err = c.get(ctx, c.gamma, "get market", "/markets/slug/"+url.PathEscape(ident), withTags())
	case KindCondition:
		var m Market
		// condition_ids matches lowercase ids only (a published inventory of
		// Gamma's filters, 2026-10-01): a checksummed or upper-case id is
		// sent lowercased.
		m, src, err = c.marketWhere(ctx, "condition_ids", strings.ToLower(ident))
		if err == nil && m.ID == "" {
			err = envelope.New(envelope.NotFound, "no Polymarket market has conditionId %s; search_markets finds markets by text", ident)
		}
		if err != nil {
			return Market{}, src, err
		}
		return m, src, nil
	case KindToken:
		var m Market
		m, src, err = c.marketWhere(ctx, "clob_token_ids", ident)
		if err == nil && m.ID == "" {
			err = envelope.New(envelope.NotFound, "no Polymarket market has the outcome token %s; search_markets finds markets by text", extract.Clip(ident, 90))
		}
		if err != nil {
			return Market{}, src, err
		}
		return m, src, nil
	}
	if err != nil {
		return Market{}, src, notFoundHint(err, "no Polymarket market is "+ident+"; search_markets or list_markets find ids and slugs")
	}
	m, err := decode[Market]("get market", b)
	if err == nil && m.ID == "" {
		err = envelope.New(envelope.UpstreamError, "polymarket get market: the answer has no market id; try again shortly").WithRetryable(true)
	}
	return m, src, err
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

// CommentPage is one page of GET /comments/keyset.
type CommentPage struct {
	Comments   []Comment `json:"comments"`
	NextCursor string    `json:"next_cursor"`
}

// CommentsKeyset pages a whole thread (GET /comments/keyset:
// parent_entity_type, parent_entity_id, order=id|createdAt, ascending,
// limit ≤ 100, after_cursor → {"comments":[…],"next_cursor"}; next_cursor
// absent at the end). limit counts top-level comments and their replies ride
// along in the same page; a thread ending exactly on a page boundary may
// answer one last empty page (source: Polymarket/ts-sdk
// packages/client/src/actions/comments.ts, packages/bindings/src/gamma/comment.ts,
// .changeset/dev-614-comments-keyset.md). The offset route /comments stops at
// offset 200 (dev-614-comments-offset-cap.md), so it is not used.
func (c *Client) CommentsKeyset(ctx context.Context, q url.Values) (CommentPage, Source, error) {
	b, src, err := c.get(ctx, c.gamma, "list comments", "/comments/keyset", q)
	if err != nil {
		return CommentPage{}, src, err
	}
	p, err := decode[CommentPage]("list comments", b)
	if p.Comments == nil {
		p.Comments = []Comment{}
	}
	return p, src, err
}

// withTags asks Gamma for a market's tags: it leaves null keys out and
// current markets carry no category, so the tags are where a market's
// categories are (include_tag on /markets/{id}, /markets/slug/{slug} and the
// lists: source: rs-clob-client src/gamma/types/request.rs).
func withTags() url.Values { return url.Values{"include_tag": {"true"}} }

// marketWhere finds the one market a keyset filter names: the filter lists
// open markets unless closed=true is sent, so closed is asked second. An
// empty Market (no ID) means none.
func (c *Client) marketWhere(ctx context.Context, filter, value string) (Market, Source, error) {
	var src Source
	for _, closed := range []string{"false", "true"} {
		p, psrc, err := c.MarketsKeyset(ctx, url.Values{filter: {value}, "closed": {closed}, "limit": {"1"}, "include_tag": {"true"}})
		src = psrc
		if err != nil {
			return Market{}, src, err
		}
		if len(p.Markets) > 0 {
			return p.Markets[0], src, nil
		}
	}
	return Market{}, src, nil
}

func notFoundHint(err error, msg string) error {
	var e *envelope.Error
	if errors.As(err, &e) && e.Code == envelope.NotFound {
		e.Message = msg
	}
	return err
}
