package tools

import (
	"context"
	"net/url"
	"strconv"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// SearchIn is a text search.
type SearchIn struct {
	Query  string `json:"query" mcp:"minLength=1;maxLength=200"`
	Limit  int    `json:"limit,omitempty" mcp:"min=1;max=50;default=10"`
	State  string `json:"state,omitempty" mcp:"enum=open|closed|all;default=open"`
	Cursor string `json:"cursor,omitempty"`
}

// SearchOut holds matching events and their markets.
type SearchOut struct {
	Events     []Event  `json:"events" mcp:"type=object"`
	Markets    []Market `json:"markets" mcp:"type=object"`
	Total      int      `json:"total,omitempty"`
	NextCursor string   `json:"next_cursor,omitempty"`
	Fallback   string   `json:"fallback,omitempty"`
	client.Source
}

func (s *Service) searchMarkets() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "search_markets", Title: "Search markets", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "Text search of Polymarket events and markets (\"fed rate\"): matching events and their busiest markets (list rows as list_markets). If search fails or finds nothing, markets are the top open ones by 24h volume and fallback says so."},
		limited(s, publicCall, func(ctx context.Context, in SearchIn) (SearchOut, error) {
			c, err := decodeCursor("search_markets", in.Cursor)
			if err != nil {
				return SearchOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 10
			}
			pg := max(c.Offset, 1)
			q := url.Values{"q": {in.Query}, "limit_per_type": {strconv.Itoa(limit)}, "page": {strconv.Itoa(pg)},
				"search_tags": {"false"}, "search_profiles": {"false"}}
			switch in.State {
			case "closed":
				q.Set("events_status", "closed")
				q.Set("keep_closed_markets", "1")
			case "all":
				q.Set("keep_closed_markets", "1")
			default:
				q.Set("events_status", "active")
				q.Set("keep_closed_markets", "0")
			}
			res, src, err := s.c.Search(ctx, q)
			out := SearchOut{Events: []Event{}, Markets: []Market{}}
			if err == nil && len(res.Events) > 0 {
				// Events carry markets_total, not their markets: those are
				// the flat list, the limit busiest, once (an event like "Fed
				// decision" has dozens; listing all of them twice was 70% of
				// Gamma's bytes).
				var ms []client.Market
				for _, e := range res.Events {
					out.Events = append(out.Events, shapeEvent(e, 0, view{}, false))
					ms = append(ms, e.Markets...)
				}
				sortByVolume(ms)
				out.Markets = shapeMarkets(ms[:min(len(ms), limit)], listView("compact"))
				if res.Pagination != nil {
					out.Total = int(res.Pagination.TotalResults)
					if res.Pagination.HasMore {
						out.NextCursor = cursor{Tool: "search_markets", Offset: pg + 1}.encode()
					}
				}
				out.Source = src
				return out, nil
			}
			// the original's fallback: the open markets by 24h volume, said in the result
			why := "search found nothing for " + strconv.Quote(in.Query)
			if err != nil {
				why = "search failed (" + errText(err) + ")"
			}
			ms, fsrc, ferr := s.c.Markets(ctx, url.Values{"closed": {"false"}, "active": {"true"}, "order": {"volume24hr"},
				"ascending": {"false"}, "limit": {strconv.Itoa(limit)}})
			if ferr != nil {
				if err != nil {
					return SearchOut{}, err
				}
				return SearchOut{}, ferr
			}
			out.Markets = shapeMarkets(ms, listView("compact"))
			out.Fallback = why + "; showing the open markets with the most 24h volume instead"
			out.Source = fsrc
			return out, nil
		}))
}
