package tools

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// BTCIn optionally names the market the price is wanted for.
type BTCIn struct {
	Market string `json:"market,omitempty" mcp:"maxLength=200" jsonschema:"a BTC market's id or slug: names the source it resolves on"`
}

// BTCOut is a spot price, labelled as what it is: not the price Polymarket's
// BTC markets resolve on.
type BTCOut struct {
	Price    float64 `json:"price"`
	Quote    string  `json:"quote"`
	AsOf     string  `json:"asOf"`
	From     string  `json:"source"`
	Fallback string  `json:"fallback,omitempty"`
	RefreshS int     `json:"refresh_hint_s"`
	// IsResolutionSource is always false: a spot exchange price is not
	// what the up/down and "above X" markets settle on.
	IsResolutionSource bool `json:"is_resolution_source"`
	// ResolvesOn is the named market's resolutionSource, as Gamma has it.
	ResolvesOn string `json:"resolves_on,omitempty"`
	// ResolutionNote says where the resolution price is and why it is not
	// here.
	ResolutionNote string              `json:"resolution_note"`
	ThirdParty     envelope.ThirdParty `json:"third_party,omitempty"`
	client.Source
}

// noResolutionFeed: Polymarket's keyless real-time crypto prices (RTDS
// crypto_prices, crypto_prices_chainlink) moved to PolyBolt
// (wss://ws-live-v2.polymarket.com/ws), whose price channels need CLOB API
// credentials and whose price.crypto source is Pyth, not Chainlink or
// Binance (docs.polymarket.com/migrate/rtds-to-polybolt, "Topic Mapping";
// api-reference/live-data/overview). This server holds no credentials, so it
// has no keyless resolution-source price to give and says so.
const noResolutionFeed = "this is exchange spot, not a resolution source: BTC up/down and \"above X\" markets settle on the Chainlink BTC/USD data stream or the Binance BTCUSDT 1-minute close, as each market's rules say; Polymarket's keyless real-time feed of those moved to PolyBolt, which needs CLOB API credentials and now serves Pyth (docs.polymarket.com/migrate/rtds-to-polybolt), so none is read here"

func (s *Service) getBTCPrice() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_btc_price", Title: "Get BTC price", Toolset: setExtras, Hints: toolkit.RemoteRead,
		Description: "BTC spot price in USD (Coinbase, else Kraken) with asOf and source. Not what BTC markets resolve on: market (id or slug) names the market's resolution source (resolves_on)."},
		limited(s, publicCall, func(ctx context.Context, in BTCIn) (BTCOut, error) {
			var m client.Market
			var msrc client.Source
			if in.Market != "" {
				if _, err := client.ClassifyMarketID("market", in.Market); err != nil {
					return BTCOut{}, err
				}
				var err error
				if m, msrc, err = s.c.Market(ctx, in.Market); err != nil {
					return BTCOut{}, err
				}
			}
			sp, err := s.c.BTCSpot(ctx)
			if err != nil {
				return BTCOut{}, err
			}
			out := BTCOut{Price: sp.Price, Quote: sp.Quote, AsOf: sp.AsOf.Format(time.RFC3339), From: sp.Source,
				RefreshS: int(client.BTCTTL / time.Second), ResolutionNote: noResolutionFeed, Source: sp.Src}
			if sp.Fallback {
				out.Fallback = "Coinbase failed: " + sp.PrimaryErr
			}
			if in.Market != "" {
				out.Source = out.Source.Merge(msrc)
				if rs := strings.TrimSpace(m.ResolutionSource); rs != "" {
					out.ResolvesOn = envelope.CleanThirdParty(clipText(rs, 200))
					out.ThirdParty = envelope.ThirdParty{"resolves_on"}
					out.ResolutionNote += "; market " + string(m.ID) + " resolves on resolves_on"
				} else {
					out.ResolutionNote += "; market " + string(m.ID) + " names no resolutionSource: its rules (get_market detail=full, description) say what it settles on"
				}
			}
			return out, nil
		}))
}

// ScanIn is what the composite finders share.
type ScanIn struct {
	Limit        int     `json:"limit,omitempty" mcp:"min=1;max=50;default=10"`
	Category     string  `json:"category,omitempty" mcp:"maxLength=60" jsonschema:"a tag label or slug (Politics, crypto); none matching lists the scanned ones"`
	MinVolume    float64 `json:"min_volume,omitempty" mcp:"min=0"`
	MinLiquidity float64 `json:"min_liquidity,omitempty" mcp:"min=0"`
	ScanLimit    int     `json:"scan_limit,omitempty" mcp:"min=100;max=1000;default=300"`
}

// ClosingIn adds the horizon.
type ClosingIn struct {
	Limit        int     `json:"limit,omitempty" mcp:"min=1;max=50;default=10"`
	Category     string  `json:"category,omitempty" mcp:"maxLength=60" jsonschema:"a tag label or slug (Politics, crypto); none matching lists the scanned ones"`
	MinVolume    float64 `json:"min_volume,omitempty" mcp:"min=0"`
	MinLiquidity float64 `json:"min_liquidity,omitempty" mcp:"min=0"`
	ScanLimit    int     `json:"scan_limit,omitempty" mcp:"min=100;max=1000;default=300"`
	Hours        int     `json:"hours,omitempty" mcp:"min=1;max=720;default=24"`
}

// LongshotIn adds the price band.
type LongshotIn struct {
	Limit        int     `json:"limit,omitempty" mcp:"min=1;max=50;default=10"`
	Category     string  `json:"category,omitempty" mcp:"maxLength=60" jsonschema:"a tag label or slug (Politics, crypto); none matching lists the scanned ones"`
	MinVolume    float64 `json:"min_volume,omitempty" mcp:"min=0"`
	MinLiquidity float64 `json:"min_liquidity,omitempty" mcp:"min=0"`
	ScanLimit    int     `json:"scan_limit,omitempty" mcp:"min=100;max=1000;default=300"`
	MaxPrice     float64 `json:"max_price,omitempty" mcp:"min=0;max=1;default=0.1"`
	MinPrice     float64 `json:"min_price,omitempty" mcp:"min=0;max=1"`
}

// FoundOut is what a finder returns.
type FoundOut struct {
	envelope.Coverage
	Markets []Market `json:"markets" mcp:"type=object" jsonschema:"compact markets (see list_markets)"`
	Scanned int      `json:"scanned"`
	Matched int      `json:"matched"`
	Note    string   `json:"note,omitempty"`
	// Categories: when no scanned market carries the category asked for,
	// the tags the scanned markets do carry, most used first.
	Categories []string `json:"categories,omitempty"`
	client.Source
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

type scan struct {
	limit, budget  int
	category       string
	minVol, minLiq float64
}

func scanOf(limit int, cat string, minVol, minLiq float64, budget int) scan {
	if limit <= 0 {
		limit = 10
	}
	if budget <= 0 {
		budget = 300
	}
	return scan{limit: limit, budget: min(max(budget, client.MaxPage), 1000), category: strings.ToLower(strings.TrimSpace(cat)), minVol: minVol, minLiq: minLiq}
}

// run reads up to budget open markets from GET /markets/keyset, 100 per
// request (Gamma's cap, nautilus_trader#4086; the original asked for 500 at
// once), with include_tag=true: Gamma leaves null keys out, so markets carry
// no category, and tags come only when asked for (a market's tags are its
// categories). It keeps those passing keep and the category/volume/liquidity
// filters (numbers, never strings), and sorts them with less.
func (s *Service) run(ctx context.Context, sc scan, q url.Values, keep func(client.Market) bool, less func(a, b client.Market) bool) (FoundOut, error) {
	for k, v := range statePhases("open")[0] {
		q[k] = v
	}
	q.Set("include_tag", "true")
	var all []client.Market
	var src client.Source
	var failed error
	scanned := 0
	after := ""
	for scanned < sc.budget {
		q.Set("limit", strconv.Itoa(min(client.MaxPage, sc.budget-scanned)))
		if after != "" {
			q.Set("after_cursor", after)
		}
		p, psrc, err := s.c.MarketsKeyset(ctx, q)
		if err != nil {
			if scanned > 0 {
				failed = err // keep what was read; the coverage says so
				break
			}
			return FoundOut{}, err
		}
		if scanned == 0 {
			src = psrc
		} else {
			src = psrc.Merge(src)
		}
		scanned += len(p.Markets)
		all = append(all, p.Markets...)
		if after = p.NextCursor; after == "" || len(p.Markets) == 0 {
			break
		}
	}
	var hits []client.Market
	for _, m := range all {
		if sc.category != "" && !strings.EqualFold(category(m), sc.category) && !hasTag(m, sc.category) {
			continue
		}
		if m.Vol() < sc.minVol || m.Liq() < sc.minLiq || !keep(m) {
			continue
		}
		hits = append(hits, m)
	}
	sort.SliceStable(hits, func(i, j int) bool { return less(hits[i], hits[j]) })
	out := FoundOut{Scanned: scanned, Matched: len(hits), Source: src, ThirdParty: marketsThirdParty}
	if sc.category != "" && len(hits) == 0 {
		out.Categories = tagsSeen(all, 20)
	}
	if len(hits) > sc.limit {
		hits = hits[:sc.limit]
	}
	v := newView("compact", nil)
	v.fields = map[string]bool{"slug": true, "question": true, "state": true, "end": true, "volume": true, "volume_24h": true,
		"liquidity": true, "outcomes": true, "change_1d": true, "category": true}
	out.Markets = shapeMarkets(hits, v)
	switch {
	case failed != nil:
		out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("open markets after the first %d scanned: a later page failed (%s)", scanned, envelope.From(failed).Message),
			"call again; the matches listed come from the markets read")
	case scanned >= sc.budget && after != "":
		out.Note = fmt.Sprintf("scanned the first %d open markets (scan_limit); raise scan_limit (max 1000) to look further", scanned)
		out.Coverage = envelope.Cut(envelope.Truncated, fmt.Sprintf("open markets after the first %d by this order", scanned), "raise scan_limit (max 1000), or narrow category")
	case out.Matched > len(out.Markets):
		out.Coverage = envelope.Cut(envelope.Truncated, fmt.Sprintf("%d more matches", out.Matched-len(out.Markets)), "raise limit (max 50)")
	case out.Matched == 0:
		out.Coverage = envelope.Nothing(fmt.Sprintf("none of the %d open markets scanned matched", scanned))
	default:
		out.Coverage = envelope.Whole()
	}
	return out, nil
}

// tagsSeen lists the tag labels of ms, most used first (ties by name), at most n.
func tagsSeen(ms []client.Market, n int) []string {
	count := map[string]int{}
	for _, m := range ms {
		for _, t := range m.Tags {
			if t.Label != "" {
				count[t.Label]++
			}
		}
		if m.Category != "" {
			count[m.Category]++
		}
	}
	out := make([]string, 0, len(count))
	for l := range count {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	return out[:min(len(out), n)]
}

func hasTag(m client.Market, c string) bool {
	for _, t := range m.Tags {
		if strings.EqualFold(t.Label, c) || strings.EqualFold(t.Slug, c) {
			return true
		}
	}
	return false
}

const finderTail = " Scans scan_limit open markets."

func (s *Service) findTrending() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "find_trending_markets", Title: "Find trending markets", Toolset: setExtras, Hints: toolkit.RemoteRead,
		Description: "Markets with the most 24h volume." + finderTail},
		limited(s, publicCall, func(ctx context.Context, in ScanIn) (FoundOut, error) {
			sc := scanOf(in.Limit, in.Category, in.MinVolume, in.MinLiquidity, in.ScanLimit)
			return s.run(ctx, sc, url.Values{"order": {"volume24hr"}, "ascending": {"false"}},
				func(m client.Market) bool { return m.Volume24hr > 0 },
				func(a, b client.Market) bool { return a.Volume24hr > b.Volume24hr })
		}))
}

func (s *Service) findClosingSoon() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "find_closing_soon", Title: "Find markets closing soon", Toolset: setExtras, Hints: toolkit.RemoteRead,
		Description: "Markets ending within hours, soonest first." + finderTail},
		limited(s, publicCall, func(ctx context.Context, in ClosingIn) (FoundOut, error) {
			sc := scanOf(in.Limit, in.Category, in.MinVolume, in.MinLiquidity, in.ScanLimit)
			hours := in.Hours
			if hours <= 0 {
				hours = 24
			}
			now := s.now().UTC()
			until := now.Add(time.Duration(hours) * time.Hour)
			q := url.Values{"order": {"endDate"}, "ascending": {"true"},
				"end_date_min": {now.Format(time.RFC3339)}, "end_date_max": {until.Format(time.RFC3339)}}
			return s.run(ctx, sc, q, func(m client.Market) bool {
				t, err := time.Parse(time.RFC3339, m.EndDate)
				return err == nil && !t.Before(now) && !t.After(until)
			}, func(a, b client.Market) bool { return a.EndDate < b.EndDate })
		}))
}

func (s *Service) findLongshots() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "find_longshots", Title: "Find longshots", Toolset: setExtras, Hints: toolkit.RemoteRead,
		Description: "Markets with an outcome priced in min_price..max_price, by 24h volume." + finderTail},
		limited(s, publicCall, func(ctx context.Context, in LongshotIn) (FoundOut, error) {
			hi := in.MaxPrice
			if hi == 0 {
				hi = 0.1
			}
			if in.MinPrice > hi {
				return FoundOut{}, envelope.Invalid("min_price", "min_price must not exceed max_price")
			}
			sc := scanOf(in.Limit, in.Category, in.MinVolume, in.MinLiquidity, in.ScanLimit)
			return s.run(ctx, sc, url.Values{"order": {"volume24hr"}, "ascending": {"false"}}, func(m client.Market) bool {
				for _, p := range m.Prices() {
					if p > 0 && p >= in.MinPrice && p <= hi {
						return true
					}
				}
				return false
			}, func(a, b client.Market) bool { return a.Volume24hr > b.Volume24hr })
		}))
}

func (s *Service) findVolatile() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "find_volatile_markets", Title: "Find volatile markets", Toolset: setExtras, Hints: toolkit.RemoteRead,
		Description: "Markets with the largest |1-day price change|." + finderTail},
		limited(s, publicCall, func(ctx context.Context, in ScanIn) (FoundOut, error) {
			sc := scanOf(in.Limit, in.Category, in.MinVolume, in.MinLiquidity, in.ScanLimit)
			return s.run(ctx, sc, url.Values{"order": {"volume24hr"}, "ascending": {"false"}},
				func(m client.Market) bool { return m.OneDayPriceChange != 0 },
				func(a, b client.Market) bool {
					return math.Abs(float64(a.OneDayPriceChange)) > math.Abs(float64(b.OneDayPriceChange))
				})
		}))
}
