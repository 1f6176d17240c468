package tools

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// Outcome is one outcome with its price and CLOB token id.
type Outcome struct {
	Name    string  `json:"name"`
	Price   float64 `json:"price"`
	TokenID string  `json:"token_id,omitempty"`
}

// Market is the compact market the model sees; detail=full or fields add or
// pick fields. Numbers are numbers (Gamma's strings are parsed).
type Market struct {
	ID          string    `json:"id"`
	Slug        string    `json:"slug,omitempty"`
	Question    string    `json:"question,omitempty"`
	Description string    `json:"description,omitempty"`
	State       string    `json:"state,omitempty"`
	Start       string    `json:"start,omitempty"`
	End         string    `json:"end,omitempty"`
	Volume      *float64  `json:"volume,omitempty"`
	Volume24h   *float64  `json:"volume_24h,omitempty"`
	Liquidity   *float64  `json:"liquidity,omitempty"`
	Outcomes    []Outcome `json:"outcomes,omitempty"`
	ConditionID string    `json:"condition_id,omitempty"`
	BestBid     *float64  `json:"best_bid,omitempty"`
	BestAsk     *float64  `json:"best_ask,omitempty"`
	LastPrice   *float64  `json:"last_price,omitempty"`
	Change1d    *float64  `json:"change_1d,omitempty"`
	Category    string    `json:"category,omitempty"`
	Event       string    `json:"event_slug,omitempty"`
}

// view says what to keep of a market.
type view struct {
	full     bool
	fields   map[string]bool // nil: the detail level decides
	noTokens bool            // outcomes without token_id (list rows)
}

func newView(detail string, fields []string) view {
	v := view{full: detail == "full"}
	if len(fields) > 0 {
		v.fields = map[string]bool{}
		for _, f := range fields {
			v.fields[f] = true
		}
	}
	return v
}

// compactDefault are the fields of a compact market.
var compactDefault = map[string]bool{"slug": true, "question": true, "description": true, "state": true, "end": true,
	"volume": true, "volume_24h": true, "liquidity": true, "outcomes": true, "condition_id": true}

// listView is a market row in a list: what an agent picks a market by
// (question, state, end, volume, liquidity, outcome prices). The description,
// condition_id and the outcomes' token ids are get_market's (or
// detail=full's): ids of 66-78 bytes were half a row.
func listView(detail string) view {
	if detail == "full" {
		return view{full: true}
	}
	return view{noTokens: true, fields: map[string]bool{"slug": true, "question": true, "state": true, "end": true,
		"volume": true, "volume_24h": true, "liquidity": true, "outcomes": true}}
}

func (v view) want(f string) bool {
	if v.fields != nil {
		return v.fields[f]
	}
	return v.full || compactDefault[f]
}

func ptr(f float64) *float64 { return &f }

func state(active, closed, archived bool) string {
	switch {
	case archived:
		return "archived"
	case closed:
		return "closed"
	case active:
		return "active"
	}
	return "inactive"
}

// clipText shortens s to n runes at a word boundary, with an ellipsis.
func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > n/2 {
		return string(r)[:i] + "…"
	}
	return string(r) + "…"
}

// shapeMarket builds the model's market from Gamma's.
func shapeMarket(m client.Market, v view) Market {
	out := Market{ID: string(m.ID)}
	set := func(f string, fn func()) {
		if v.want(f) {
			fn()
		}
	}
	set("slug", func() { out.Slug = m.Slug })
	set("question", func() { out.Question = envelope.CleanThirdParty(m.Question) })
	set("description", func() {
		out.Description = envelope.CleanThirdParty(m.Description)
		if !v.full {
			out.Description = clipText(out.Description, 150)
		}
	})
	set("state", func() { out.State = state(m.Active, m.Closed, m.Archived) })
	set("start", func() { out.Start = m.StartDate })
	set("end", func() { out.End = m.EndDate })
	set("volume", func() { out.Volume = ptr(m.Vol()) })
	set("volume_24h", func() { out.Volume24h = ptr(float64(m.Volume24hr)) })
	set("liquidity", func() { out.Liquidity = ptr(m.Liq()) })
	set("outcomes", func() {
		out.Outcomes = outcomes(m)
		if v.noTokens {
			for i := range out.Outcomes {
				out.Outcomes[i].TokenID = ""
			}
		}
	})
	set("condition_id", func() { out.ConditionID = m.ConditionID })
	set("best_bid", func() { out.BestBid = ptr(float64(m.BestBid)) })
	set("best_ask", func() { out.BestAsk = ptr(float64(m.BestAsk)) })
	set("last_price", func() { out.LastPrice = ptr(float64(m.LastTradePrice)) })
	set("change_1d", func() { out.Change1d = ptr(float64(m.OneDayPriceChange)) })
	set("category", func() { out.Category = category(m) })
	set("event_slug", func() {
		if len(m.Events) > 0 {
			out.Event = m.Events[0].Slug
		}
	})
	return out
}

// outcomes zips outcomes, outcomePrices and clobTokenIds by index (they map
// 1:1: docs.polymarket.com/market-data/overview).
func outcomes(m client.Market) []Outcome {
	prices := m.Prices()
	out := make([]Outcome, len(m.Outcomes))
	for i, name := range m.Outcomes {
		out[i].Name = name
		if i < len(prices) {
			out[i].Price = prices[i]
		}
		if i < len(m.ClobTokenIDs) {
			out[i].TokenID = m.ClobTokenIDs[i]
		}
	}
	return out
}

// category is the market's category, else its first tag's label.
func category(m client.Market) string {
	if m.Category != "" {
		return m.Category
	}
	if len(m.Tags) > 0 {
		return m.Tags[0].Label
	}
	return ""
}

func shapeMarkets(ms []client.Market, v view) []Market {
	out := make([]Market, len(ms))
	for i, m := range ms {
		out[i] = shapeMarket(m, v)
	}
	return out
}

// Event is the compact event: a few nested markets and a count of all.
type Event struct {
	ID           string   `json:"id"`
	Slug         string   `json:"slug,omitempty"`
	Title        string   `json:"title,omitempty"`
	Description  string   `json:"description,omitempty"`
	State        string   `json:"state,omitempty"`
	End          string   `json:"end,omitempty"`
	Volume       float64  `json:"volume"`
	Liquidity    float64  `json:"liquidity"`
	Tags         []string `json:"tags,omitempty"`
	Markets      []Market `json:"markets,omitempty"`
	MarketsTotal int      `json:"markets_total"`
}

// shapeEvent keeps up to keep nested markets (highest volume first) in the
// compact form without descriptions, unless v asks for more.
func shapeEvent(e client.Event, keep int, v view, full bool) Event {
	out := Event{ID: string(e.ID), Slug: e.Slug, Title: envelope.CleanThirdParty(e.Title), State: state(e.Active, e.Closed, e.Archived),
		End: e.EndDate, Volume: float64(e.Volume), Liquidity: float64(e.Liquidity), MarketsTotal: len(e.Markets)}
	if full {
		out.Description = clipText(envelope.CleanThirdParty(e.Description), 300)
	}
	for _, t := range e.Tags {
		out.Tags = append(out.Tags, t.Label)
	}
	ms := append([]client.Market(nil), e.Markets...)
	sortByVolume(ms)
	if v.fields == nil && !v.full {
		v.fields = map[string]bool{"slug": true, "question": true, "state": true, "volume": true, "outcomes": true, "condition_id": true}
	}
	for i := 0; i < len(ms) && i < keep; i++ {
		out.Markets = append(out.Markets, shapeMarket(ms[i], v))
	}
	return out
}

func sortByVolume(ms []client.Market) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Vol() > ms[j-1].Vol(); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// Market and event questions, titles and descriptions are written by
// Polymarket's market makers, not by this server: the paths a result lists
// in third_party.
var (
	marketsThirdParty = envelope.ThirdParty{"markets[].question", "markets[].description"}
	marketThirdParty  = envelope.ThirdParty{"market.question", "market.description"}
	eventsThirdParty  = envelope.ThirdParty{"events[].title", "events[].description", "events[].markets[].question", "events[].markets[].description"}
	eventThirdParty   = envelope.ThirdParty{"event.title", "event.description", "event.markets[].question", "event.markets[].description"}
	searchThirdParty  = envelope.ThirdParty{"events[].title", "markets[].question", "markets[].description", "suggestions[].question"}
)
