package tools

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// orderFields maps the tools' order names to Gamma's camelCase fields
// (snake_case is ignored upstream: forecastingresearch/forecastbench#233).
var orderFields = map[string]string{"volume": "volumeNum", "volume_24h": "volume24hr", "liquidity": "liquidityNum",
	"end_date": "endDate", "start_date": "startDate"}

var eventOrderFields = map[string]string{"volume": "volume", "volume_24h": "volume24hr", "liquidity": "liquidity",
	"end_date": "endDate", "start_date": "startDate"}

// statePhases is what each state asks Gamma's keyset routes, in order: they
// list open markets only unless closed=true is sent (absent closed means
// false: a public historical-data cookbook, 2026-08-11; polyoxide docs), so
// state=all walks the open ones, then the closed ones. Open also sends
// active=true, because Gamma's default order lists 2020 markets
// (berlinbra/polymarket-mcp#17).
func statePhases(st string) []url.Values {
	open := url.Values{"closed": {"false"}, "active": {"true"}}
	closed := url.Values{"closed": {"true"}}
	switch st {
	case "closed":
		return []url.Values{closed}
	case "all":
		return []url.Values{{"closed": {"false"}}, closed}
	}
	return []url.Values{open}
}

// phaseOf applies the cursor's phase of state to q; a phase the state does
// not have is a cursor from other filters.
func phaseOf(tool string, c cursor, state string, q url.Values) (last bool, err error) {
	ph := statePhases(state)
	if c.Phase >= len(ph) {
		return false, envelope.Invalid("cursor", "cursor is not a next_cursor that %s returned with these filters; pass the same state, or leave cursor out for the first page", tool)
	}
	for k, v := range ph[c.Phase] {
		q[k] = v
	}
	return c.Phase == len(ph)-1, nil
}

// nextPhase is the cursor after a page: Gamma's next_cursor while there is
// one, then (state=all) the first page of the closed markets.
func nextPhase(tool string, c cursor, last bool, upstreamNext string, got int) (next, note string) {
	switch {
	case upstreamNext != "" && got > 0:
		return cursor{Tool: tool, Keyset: upstreamNext, Phase: c.Phase}.encode(), ""
	case !last:
		return cursor{Tool: tool, Phase: c.Phase + 1}.encode(), "the open ones end here; next_cursor continues with the closed ones"
	}
	return "", ""
}

// keysetCoverage is the coverage of a keyset page: another page behind
// next, the end, or nothing matching these filters.
func keysetCoverage(tool, what, next string, got int) envelope.Coverage {
	switch {
	case next != "":
		return envelope.Page(next, fmt.Sprintf("the %s after these %d", what, got), "same filters, this cursor")
	case got == 0:
		return envelope.Nothing("Gamma answered no " + what + " for these filters here")
	}
	return envelope.Whole()
}

// ListMarketsIn filters and pages markets.
type ListMarketsIn struct {
	Limit     int    `json:"limit,omitempty" mcp:"min=1;max=100;default=20"`
	Cursor    string `json:"cursor,omitempty"`
	State     string `json:"state,omitempty" mcp:"enum=open|closed|all;default=open" jsonschema:"all: open ones first, then closed"`
	Order     string `json:"order,omitempty" mcp:"enum=volume|volume_24h|liquidity|end_date;default=volume_24h"`
	Ascending bool   `json:"ascending,omitempty"`
	EndMin    string `json:"end_date_min,omitempty" mcp:"format=date-time"`
	EndMax    string `json:"end_date_max,omitempty" mcp:"format=date-time"`
	TagID     int    `json:"tag_id,omitempty" mcp:"min=1"`
	Detail    string `json:"detail,omitempty" mcp:"enum=compact|full;default=compact"`
}

// MarketsOut is a page of markets.
type MarketsOut struct {
	envelope.Coverage
	Markets    []Market `json:"markets" mcp:"type=object"`
	NextCursor string   `json:"next_cursor,omitempty"`
	Note       string   `json:"note,omitempty"`
	client.Source
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) listMarkets() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_markets", Title: "List markets", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "Browse Polymarket markets by filter and order (default open, by 24h volume); search_markets finds by text. Rows: id, slug, question, state, end, volumes, liquidity, outcome prices; token_ids and condition_id come from get_market or detail=full. next_cursor pages (same filters)."},
		limited(s, publicCall, func(ctx context.Context, in ListMarketsIn) (MarketsOut, error) {
			q := url.Values{}
			setOrder(q, orderFields, in.Order, in.Ascending)
			for _, d := range []struct{ field, v string }{{"end_date_min", in.EndMin}, {"end_date_max", in.EndMax}} {
				if d.v == "" {
					continue
				}
				if err := client.CheckDate(d.field, d.v); err != nil {
					return MarketsOut{}, err
				}
				q.Set(d.field, d.v)
			}
			if in.TagID > 0 {
				q.Set("tag_id", strconv.Itoa(in.TagID))
			}
			ms, next, note, src, err := s.pageMarkets(ctx, "list_markets", in.State, in.Cursor, pageSize(in.Limit, 20), q)
			if err != nil {
				return MarketsOut{}, err
			}
			return MarketsOut{Coverage: keysetCoverage("list_markets", "markets", next, len(ms)), Markets: shapeMarkets(ms, listView(in.Detail)),
				NextCursor: next, Note: note, Source: src, ThirdParty: marketsThirdParty}, nil
		}))
}

func pageSize(n, def int) int {
	if n <= 0 {
		return def
	}
	return min(n, client.MaxPage)
}

func setOrder(q url.Values, fields map[string]string, order string, asc bool) {
	if order == "" {
		order = "volume_24h"
	}
	q.Set("order", fields[order])
	q.Set("ascending", strconv.FormatBool(asc))
}

// pageMarkets reads one page of GET /markets/keyset (the legacy /markets is
// past its sunset: it answers with deprecation, sunset Fri, 01 May 2026 and
// warning 299 "use /markets/keyset", and 422 past offset 2,000).
func (s *Service) pageMarkets(ctx context.Context, tool, state, cur string, limit int, q url.Values) ([]client.Market, string, string, client.Source, error) {
	c, err := decodeCursor(tool, cur)
	if err != nil {
		return nil, "", "", client.Source{}, err
	}
	last, err := phaseOf(tool, c, state, q)
	if err != nil {
		return nil, "", "", client.Source{}, err
	}
	q.Set("limit", strconv.Itoa(limit))
	if c.Keyset != "" {
		q.Set("after_cursor", c.Keyset)
	}
	p, src, err := s.c.MarketsKeyset(ctx, q)
	if err != nil {
		return nil, "", "", src, err
	}
	next, note := nextPhase(tool, c, last, p.NextCursor, len(p.Markets))
	return p.Markets, next, note, src, nil
}

// GetMarketIn names a market.
type GetMarketIn struct {
	Identifier string   `json:"identifier" mcp:"minLength=1;maxLength=200"`
	Detail     string   `json:"detail,omitempty" mcp:"enum=compact|full;default=compact"`
	Fields     []string `json:"fields,omitempty" mcp:"enum=slug|question|description|state|start|end|volume|volume_24h|liquidity|outcomes|condition_id|best_bid|best_ask|last_price|change_1d|category|event_slug"`
}

// MarketOut is one market.
type MarketOut struct {
	Market Market `json:"market" mcp:"type=object"`
	client.Source
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) getMarket() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_market", Title: "Get market", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "One market by numeric id, slug or conditionId. detail=full adds bid/ask, last price, 1d change, category, event. Outcome token_ids feed get_order_books/get_prices/get_price_history; condition_id feeds get_top_holders."},
		limited(s, publicCall, func(ctx context.Context, in GetMarketIn) (MarketOut, error) {
			if _, err := client.ClassifyMarketID("identifier", in.Identifier); err != nil {
				return MarketOut{}, err
			}
			m, src, err := s.c.Market(ctx, in.Identifier)
			if err != nil {
				return MarketOut{}, err
			}
			return MarketOut{Market: shapeMarket(m, newView(in.Detail, in.Fields)), Source: src, ThirdParty: marketThirdParty}, nil
		}))
}

// ListEventsIn filters and pages events.
type ListEventsIn struct {
	Limit     int    `json:"limit,omitempty" mcp:"min=1;max=100;default=10"`
	Cursor    string `json:"cursor,omitempty"`
	State     string `json:"state,omitempty" mcp:"enum=open|closed|all;default=open" jsonschema:"all: open ones first, then closed"`
	Order     string `json:"order,omitempty" mcp:"enum=volume|volume_24h|liquidity|end_date;default=volume_24h"`
	Ascending bool   `json:"ascending,omitempty"`
	TagSlug   string `json:"tag_slug,omitempty" mcp:"pattern=^[a-z0-9-]{1,60}$"`
	Markets   int    `json:"markets_per_event,omitempty" mcp:"min=0;max=20;default=3"`
}

// EventsOut is a page of events.
type EventsOut struct {
	envelope.Coverage
	Events     []Event `json:"events" mcp:"type=object"`
	NextCursor string  `json:"next_cursor,omitempty"`
	Note       string  `json:"note,omitempty"`
	client.Source
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) listEvents() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_events", Title: "List events", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "Browse Polymarket events (groups of markets) by filter and order; each keeps its top markets_per_event markets and markets_total. next_cursor pages (same filters)."},
		limited(s, publicCall, func(ctx context.Context, in ListEventsIn) (EventsOut, error) {
			c, err := decodeCursor("list_events", in.Cursor)
			if err != nil {
				return EventsOut{}, err
			}
			limit := pageSize(in.Limit, 10)
			q := url.Values{"limit": {strconv.Itoa(limit)}}
			last, err := phaseOf("list_events", c, in.State, q)
			if err != nil {
				return EventsOut{}, err
			}
			q.Del("active")
			setOrder(q, eventOrderFields, in.Order, in.Ascending)
			if in.TagSlug != "" {
				q.Set("tag_slug", in.TagSlug)
			}
			keep := in.Markets
			if keep == 0 && !strings.Contains(string(toolkitArgs(ctx)), "markets_per_event") {
				keep = 3
			}
			if c.Keyset != "" {
				q.Set("after_cursor", c.Keyset)
			}
			p, src, err := s.c.EventsKeyset(ctx, q)
			if err != nil {
				return EventsOut{}, err
			}
			es := p.Events
			next, note := nextPhase("list_events", c, last, p.NextCursor, len(es))
			out := make([]Event, len(es))
			for i, e := range es {
				out[i] = shapeEvent(e, keep, view{}, false)
			}
			return EventsOut{Coverage: keysetCoverage("list_events", "events", next, len(es)), Events: out, NextCursor: next, Note: note, Source: src,
				ThirdParty: eventsThirdParty}, nil
		}))
}

// GetEventIn names an event.
type GetEventIn struct {
	Identifier string `json:"identifier" mcp:"minLength=1;maxLength=200"`
	Markets    int    `json:"markets_limit,omitempty" mcp:"min=1;max=100;default=10"`
}

// EventOut is one event.
type EventOut struct {
	Event Event `json:"event" mcp:"type=object"`
	client.Source
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) getEvent() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_event", Title: "Get event", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "One event by numeric id or slug, with its markets summarised (by volume, markets_limit kept, markets_total counted)."},
		limited(s, publicCall, func(ctx context.Context, in GetEventIn) (EventOut, error) {
			if _, err := client.ClassifyEventID("identifier", in.Identifier); err != nil {
				return EventOut{}, err
			}
			e, src, err := s.c.Event(ctx, in.Identifier)
			if err != nil {
				return EventOut{}, err
			}
			keep := in.Markets
			if keep <= 0 {
				keep = 10
			}
			return EventOut{Event: shapeEvent(e, keep, view{}, true), Source: src, ThirdParty: eventThirdParty}, nil
		}))
}

// toolkitArgs is the raw arguments of the running call (to tell an explicit 0 from absent).
func toolkitArgs(ctx context.Context) []byte {
	b, _ := jsonOf(toolkit.Request(ctx).GetRawArguments())
	return b
}
