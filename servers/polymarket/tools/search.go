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
	// NoMatch says the search found nothing; events and markets are then
	// empty, and Suggestions (never mixed into the results) are the open
	// markets with the most 24h volume.
	NoMatch     string   `json:"no_match,omitempty"`
	Suggestions []Market `json:"suggestions,omitempty" mcp:"type=object"`
	client.Source
}

func (s *Service) searchMarkets() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "search_markets", Title: "Search markets", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "Text search of Polymarket events and markets (\"fed rate\"): matching events and their busiest markets (list rows as list_markets). No match: empty results, no_match says so, suggestions holds the busiest open markets."},
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
			if err != nil {
				return SearchOut{}, err
			}
			out := SearchOut{Events: []Event{}, Markets: []Market{}, Source: src}
			if len(res.Events) > 0 {
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
				return out, nil
			}
			out.NoMatch = "no match for " + strconv.Quote(in.Query) + " (state " + or(in.State, "open") + "); try other words or state=all"
			// suggestions: the open markets with the most 24h volume, best
			// effort (a failure leaves them out, the no_match stands)
			sq := statePhases("open")[0]
			sq.Set("order", "volume24hr")
			sq.Set("ascending", "false")
			sq.Set("limit", strconv.Itoa(min(limit, 5)))
			if p, _, err := s.c.MarketsKeyset(ctx, sq); err == nil && len(p.Markets) > 0 {
				out.Suggestions = shapeMarkets(p.Markets, listView("compact"))
			}
			return out, nil
		}))
}

func or(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
