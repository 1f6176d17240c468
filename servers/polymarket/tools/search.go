package tools

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
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
	envelope.Coverage
	Events  []Event  `json:"events" mcp:"type=object"`
	Markets []Market `json:"markets" mcp:"type=object"`
	// EventsTotal is Gamma's count of the events matching over every page
	// (pagination.totalResults; tags and profiles are not searched).
	EventsTotal *int   `json:"events_total,omitempty" jsonschema:"events matching over all pages (Gamma's count)"`
	NextCursor  string `json:"next_cursor,omitempty"`
	// NoMatch says the search found nothing; events and markets are then
	// empty, and Suggestions (never mixed into the results) are the open
	// markets with the most 24h volume.
	NoMatch     string              `json:"no_match,omitempty"`
	Suggestions []Market            `json:"suggestions,omitempty" mcp:"type=object"`
	ThirdParty  envelope.ThirdParty `json:"third_party"`
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
			if pg > maxSearchPage {
				return SearchOut{}, envelope.Invalid("cursor", "search serves at most %d pages; narrow the query instead", maxSearchPage)
			}
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
			out := SearchOut{Events: []Event{}, Markets: []Market{}, Source: src, ThirdParty: searchThirdParty}
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
				more := false
				if res.Pagination != nil {
					total := int(res.Pagination.TotalResults)
					out.EventsTotal = &total
					more = res.Pagination.HasMore
				}
				out.Coverage, out.NextCursor = searchCoverage(pg, more, len(ms) > limit, out.EventsTotal)
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
			out.Coverage = envelope.Nothing(out.NoMatch)
			return out, nil
		}))
}

// maxSearchPage is the last page /public-search serves (Polymarket/ts-sdk
// packages/client/src/actions/search.ts: MAX_SEARCH_PAGE = 100, "search
// serves up to 100 pages"; following a cursor past it is refused there too).
const maxSearchPage = 100

// searchCoverage says what a search page holds: another page (and its
// cursor), the 100-page cap reached with more matching, the markets cut to
// the limit busiest, or everything.
func searchCoverage(pg int, more, marketsCut bool, total *int) (envelope.Coverage, string) {
	of := ""
	if total != nil {
		of = fmt.Sprintf(" of %d", *total)
	}
	switch {
	case more && pg < maxSearchPage:
		next := cursor{Tool: "search_markets", Offset: pg + 1}.encode()
		return envelope.Page(next, fmt.Sprintf("matching events after page %d%s", pg, of), "same query and state, this cursor"), next
	case more:
		return envelope.Cut(envelope.Capped, fmt.Sprintf("matching events past page %d%s (the search serves %d pages)", pg, of, maxSearchPage),
			"narrow the query (more words, state) or browse with list_events"), ""
	case marketsCut:
		return envelope.Cut(envelope.Truncated, "the events' less busy markets (markets holds the limit busiest)",
			"get_event lists an event's markets"), ""
	}
	return envelope.Whole(), ""
}

func or(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
