package tools

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// ExchangesIn is empty: the tool lists every exchange.
type ExchangesIn struct{}

// Exchange is one exchange id with our name and type (the table's row).
type Exchange struct {
	ID   string
	Name string
	Type string // crypto, forex, stock, index, futures, bond, other
}

// ExchangesByType lists ids per type, each sorted by name. Lists rather than
// {id: name} objects because a cached get_exchanges is paid per byte (mcp-go
// encodes, and its client decodes, every byte several times) and the model
// needs ids; names that add nothing to their id ("Binance" for BINANCE) are left
// out and the rest go in ExchangesOut.Names.
type ExchangesByType struct {
	Crypto  []string `json:"crypto,omitempty"`
	Forex   []string `json:"forex,omitempty"`
	Stock   []string `json:"stock,omitempty"`
	Index   []string `json:"index,omitempty"`
	Futures []string `json:"futures,omitempty"`
	Bond    []string `json:"bond,omitempty"`
	Other   []string `json:"other,omitempty"`
}

// ExchangesOut lists exchanges by type; the text lists them the same way.
type ExchangesOut struct {
	Exchanges ExchangesByType   `json:"exchanges" jsonschema:"type → ids" mcp:"type=object"`
	Names     map[string]string `json:"names"`
	Count     int               `json:"count"`
	// UpdatedAt is chart-img's date for its list: the model can do nothing
	// with it, so it is not sent (as in get_symbols).
	UpdatedAt string `json:"-"`
	Cached    bool   `json:"cached"`
	Stale     bool   `json:"stale"`
	envelope.Coverage

	sorted []Exchange // by type, then name: the text's order
}

// List returns the exchanges sorted by type, then name (rebuilt from the lists
// and names when the value was decoded rather than built).
func (o ExchangesOut) List() []Exchange {
	if o.sorted != nil {
		return o.sorted
	}
	var l []Exchange
	for _, t := range o.Exchanges.types() {
		for _, id := range *t.ids {
			name := o.Names[id]
			if name == "" {
				name = id
			}
			l = append(l, Exchange{ID: id, Name: name, Type: t.name})
		}
	}
	return l
}

type typedIDs struct {
	name string
	ids  *[]string
}

// types lists the type names with their lists, in the answer's order.
func (g *ExchangesByType) types() []typedIDs {
	return []typedIDs{{"crypto", &g.Crypto}, {"forex", &g.Forex}, {"stock", &g.Stock}, {"index", &g.Index},
		{"futures", &g.Futures}, {"bond", &g.Bond}, {"other", &g.Other}}
}

// add appends e's id to its type's list (call in sorted order).
func (g *ExchangesByType) add(e Exchange) {
	for _, t := range g.types() {
		if t.name == e.Type || t.name == "other" {
			*t.ids = append(*t.ids, e.ID)
			return
		}
	}
}

// spellsID reports whether name adds nothing to id: the same letters and
// digits ignoring case, spaces and punctuation (Binance US for BINANCEUS).
func spellsID(name, id string) bool {
	return alnumLower(name) == alnumLower(id)
}

func alnumLower(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sortExchanges(l []Exchange) {
	sort.Slice(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if typeOrder[a.Type] != typeOrder[b.Type] {
			return typeOrder[a.Type] < typeOrder[b.Type]
		}
		// by letters and digits, so a client sorting by Names[id] or the id
		// (which spells the name when Names leaves it out) gets the same order
		if an, bn := alnumLower(a.Name), alnumLower(b.Name); an != bn {
			return an < bn
		}
		return a.ID < b.ID
	})
}

// extra names ids the docs' symbol tables do not cover.
var extraExchanges = map[string]Exchange{
	"AMEX": {Name: "NYSE Arca", Type: "stock"}, "FX": {Name: "FXCM", Type: "forex"},
	"TVC": {Name: "TradingView", Type: "index"}, "SP": {Name: "S&P Dow Jones Indices", Type: "index"},
	"DJ": {Name: "Dow Jones", Type: "index"}, "CBOE": {Name: "Cboe", Type: "index"}, "BITSTAMP": {Name: "Bitstamp", Type: "crypto"},
	"ADX": {Name: "Abu Dhabi Securities Exchange", Type: "stock"}, "ACTIVTRADES": {Name: "ActivTrades", Type: "forex"},
	"AFTERPRIME": {Name: "Afterprime", Type: "forex"}, "CRYPTOCAP": {Name: "Crypto market cap", Type: "index"},
}

// Text renders the same list for clients that show the text block: one line
// per type, ids sorted by name, "ID=Name" where the name says more than the id.
func (o ExchangesOut) Text() string {
	var b strings.Builder
	b.Grow(o.Count * 12)
	fmt.Fprintf(&b, "%d exchanges by type (ID=Name where the name differs)", o.Count)
	if o.Stale {
		b.WriteString(" (stale: chart-img unreachable)")
	}
	last := ""
	for _, e := range o.List() {
		if e.Type != last {
			b.WriteString("\n")
			b.WriteString(e.Type)
			b.WriteString(": ")
			last = e.Type
		} else {
			b.WriteString(", ")
		}
		b.WriteString(e.ID)
		if !spellsID(e.Name, e.ID) {
			b.WriteByte('=')
			b.WriteString(e.Name)
		}
	}
	return b.String()
}

func typeOfCategory(cat string) string {
	c := strings.ToLower(cat)
	switch {
	case strings.HasPrefix(c, "crypto"):
		return "crypto"
	case strings.HasPrefix(c, "forex"):
		return "forex"
	case strings.HasPrefix(c, "stocks"):
		return "stock"
	case strings.HasPrefix(c, "indices"):
		return "index"
	case strings.HasPrefix(c, "futures"):
		return "futures"
	case strings.HasPrefix(c, "bonds"):
		return "bond"
	}
	return "other"
}

var typeOrder = map[string]int{"crypto": 0, "forex": 1, "stock": 2, "index": 3, "futures": 4, "bond": 5, "other": 6}

// exchangeTable maps ids to names and types from the docs' symbol tables (first
// table an id appears in wins), then the extra table.
func exchangeTable(d *docsparse.Docs) map[string]Exchange {
	m := map[string]Exchange{}
	for id, e := range extraExchanges {
		e.ID = id
		m[id] = e
	}
	for _, e := range d.Exchanges {
		if _, ok := m[e.ID]; ok {
			continue
		}
		m[e.ID] = Exchange{ID: e.ID, Name: e.Name, Type: typeOfCategory(e.Category)}
	}
	return m
}

func (s *Service) exchangesTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_exchanges", Title: "Chart-img exchanges", Toolset: "market",
		Description: `List the exchange ids chart-img charts, by type, with names where they differ (cached 1 h; stale: the last good list).
Use an id as EXCHANGE in EXCHANGE:SYMBOL, or with get_symbols.`,
		Hints: toolkit.RemoteRead},
		func(ctx context.Context, _ ExchangesIn) (ExchangesOut, error) {
			list, meta, err := s.exchanges.Get(ctx, "list", func(ctx context.Context) (client.ExchangeList, error) { return s.c.Exchanges(ctx) })
			if err != nil {
				return ExchangesOut{}, err
			}
			return s.exchangesAnswer(list, s.current().docs, meta.Hit, meta.Stale), nil
		})
}

// exchangesAnswer lists the exchanges by type, named from the docs' table.
func (s *Service) exchangesAnswer(list client.ExchangeList, docs *docsparse.Docs, hit, stale bool) ExchangesOut {
	table := exchangeTable(docs)
	out := ExchangesOut{sorted: make([]Exchange, 0, len(list.Payload)), UpdatedAt: deref(list.UpdatedAt), Names: map[string]string{},
		Cached: hit, Stale: stale}
	for _, id := range list.Payload {
		e, ok := table[id]
		if !ok {
			e = Exchange{Name: id, Type: "other"}
		}
		e.ID = id
		out.sorted = append(out.sorted, e)
	}
	sortExchanges(out.sorted)
	for _, e := range out.sorted {
		out.Exchanges.add(e)
		if !spellsID(e.Name, e.ID) {
			out.Names[e.ID] = e.Name
		}
	}
	out.Count = len(out.sorted)
	out.Coverage = envelope.Whole()
	if out.Count == 0 {
		out.Coverage = envelope.Nothing("chart-img lists no exchanges")
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// SymbolsIn is get_symbols' input.
type SymbolsIn struct {
	Exchange string `json:"exchange" mcp:"minLength=1;maxLength=40;pattern=^[A-Za-z0-9_.]+$"`
	Search   string `json:"search,omitempty" jsonschema:"in symbol or description" mcp:"maxLength=100"`
	Limit    int    `json:"limit,omitempty" mcp:"min=1;max=500;default=50"`
	Detail   bool   `json:"detail,omitempty"`
}

// SymbolOut is one symbol; fullSymbol goes into a config as is.
type SymbolOut struct {
	Symbol      string `json:"-"` // fullSymbol holds it
	FullSymbol  string `json:"fullSymbol"`
	Description string `json:"description"`
	Type        string `json:"type,omitempty"`
	Currency    string `json:"currency,omitempty"`
}

// SymbolsOut lists matching symbols.
type SymbolsOut struct {
	Exchange  string      `json:"exchange"`
	Symbols   []SymbolOut `json:"symbols"`
	Count     int         `json:"count"`
	Total     int         `json:"total"`
	Truncated bool        `json:"-"` // coverage says it
	UpdatedAt string      `json:"-"`
	Cached    bool        `json:"cached"`
	Stale     bool        `json:"stale"`
	envelope.Coverage
}

func (s *Service) symbolsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_symbols", Title: "Exchange symbols", Toolset: "market",
		Description: `List or search one exchange's symbols (cached 1 h): fullSymbol (for config.symbol) and description; detail adds type and currency.
Unknown exchange → invalid_argument: call get_exchanges.`,
		Hints: toolkit.RemoteRead},
		func(ctx context.Context, in SymbolsIn) (SymbolsOut, error) {
			ex := strings.ToUpper(strings.TrimSpace(in.Exchange))
			if in.Limit == 0 {
				in.Limit = 50
			}
			list, meta, err := s.symbols.Get(ctx, ex, func(ctx context.Context) (client.SymbolList, error) { return s.c.Symbols(ctx, ex, "", "") })
			if err != nil {
				var e *envelope.Error
				if errors.As(err, &e) && e.Code == envelope.InvalidArgument {
					return SymbolsOut{}, envelope.Invalid("exchange", "chart-img does not know exchange %q (%s); call get_exchanges for the ids", ex, e.Message).WithCause(err)
				}
				return SymbolsOut{}, err
			}
			q := strings.ToLower(strings.TrimSpace(in.Search))
			out := SymbolsOut{Exchange: ex, Symbols: []SymbolOut{}, Cached: meta.Hit, Stale: meta.Stale}
			for _, sy := range list.Payload {
				if q != "" && !strings.Contains(strings.ToLower(sy.Symbol), q) && !strings.Contains(strings.ToLower(sy.Description), q) {
					continue
				}
				out.Total++
				if len(out.Symbols) < in.Limit {
					exch := sy.Exchange
					if exch == "" {
						exch = ex
					}
					out.Symbols = append(out.Symbols, SymbolOut{Symbol: sy.Symbol, FullSymbol: exch + ":" + sy.Symbol,
						Description: sy.Description})
					if in.Detail {
						last := &out.Symbols[len(out.Symbols)-1]
						last.Type, last.Currency = sy.Type, sy.CurrencyCode
					}
				}
			}
			out.Count, out.Truncated = len(out.Symbols), out.Total > len(out.Symbols)
			switch {
			case out.Truncated:
				out.Coverage = envelope.Cut(envelope.Truncated, fmt.Sprintf("symbols %d-%d of %d", out.Count+1, out.Total, out.Total), "raise limit (max 500) or narrow with search")
			case out.Total == 0 && q != "":
				out.Coverage = envelope.Nothing(fmt.Sprintf("no %s symbol matches %q", ex, in.Search))
			case out.Total == 0:
				out.Coverage = envelope.Nothing("chart-img lists no symbols for " + ex)
			default:
				out.Coverage = envelope.Whole()
			}
			if list.UpdatedAt != nil {
				out.UpdatedAt = *list.UpdatedAt
			}
			return out, nil
		})
}
