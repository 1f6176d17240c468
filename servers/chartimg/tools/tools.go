// Package tools defines chartimg's six MCP tools over the chart-img client, the
// docs parser, the natural-language builder and the validator.
package tools

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// All returns the six tools.
func All(s *Service) []toolkit.Tool {
	return []toolkit.Tool{
		s.fetchDocsTool(), s.exchangesTool(), s.symbolsTool(),
		s.constructTool(), s.validateTool(), s.generateTool(),
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	var e *envelope.Error
	if errors.As(err, &e) {
		return string(e.Code) + ": " + e.Message
	}
	return "internal error"
}

// ---- fetch_chart_documentation ----

// DocsIn is fetch_chart_documentation's input.
type DocsIn struct {
	Section      string `json:"section,omitempty" jsonschema:"what to return" mcp:"enum=indicators|parameters|exchanges|limits|all;default=all"`
	ForceRefresh bool   `json:"forceRefresh,omitempty" jsonschema:"fetch the docs site now instead of using the 24 h cache"`
}

// DocsOut is what the docs say, and where the copy came from.
type DocsOut struct {
	Section    string                     `json:"section"`
	Source     string                     `json:"source" jsonschema:"live (fetched now), cache (fresh copy), stale (fetch failed: last good copy), snapshot (embedded copy)" mcp:"enum=live|cache|stale|snapshot"`
	Stale      bool                       `json:"stale"`
	FetchedAt  string                     `json:"fetchedAt,omitempty"`
	AgeSeconds int                        `json:"ageSeconds"`
	Note       string                     `json:"note,omitempty"`
	LastChange string                     `json:"lastChange,omitempty" jsonschema:"newest Recent Changes date in the docs"`
	Indicators []docsparse.Indicator      `json:"indicators,omitempty" jsonschema:"studies[].name values and their input keys"`
	Drawings   []docsparse.Drawing        `json:"drawings,omitempty"`
	Parameters *docsparse.Parameters      `json:"parameters,omitempty" jsonschema:"intervals, ranges, themes, styles, formats and the request body fields"`
	Limits     []docsparse.PlanLimit      `json:"limits,omitempty" jsonschema:"per-plan rate, resolution, storage and studies+drawings limits"`
	Exchanges  []docsparse.SymbolExchange `json:"exchanges,omitempty" jsonschema:"the docs' TradingView symbol tables"`
	Examples   []docsparse.Example        `json:"examples,omitempty"`
}

func (s *Service) fetchDocsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "fetch_chart_documentation", Title: "Fetch chart-img documentation", Toolset: "docs",
		Description: `Read the chart-img API docs: indicator display names with their input keys, types, defaults and bounds; intervals, ranges, themes, styles; per-plan limits; symbol tables; examples.
Use it before writing studies[] by hand or when validate_chart_config rejects a name. Cached 24 h; on a failed fetch the last good copy is served (source=stale), and offline the embedded copy (source=snapshot). section narrows the answer (all is ~40 KB, indicators ~30 KB).
Related: construct_chart_config builds configs from these facts; validate_chart_config checks against them.`,
		Hints: toolkit.RemoteRead},
		func(ctx context.Context, in DocsIn) (DocsOut, error) {
			if in.Section == "" {
				in.Section = "all"
			}
			r := s.loadDocs(ctx, in.ForceRefresh)
			d := r.docs
			out := DocsOut{Section: in.Section, Source: r.source, Stale: r.source == "stale" || r.source == "snapshot",
				AgeSeconds: int(r.age.Seconds()), Note: r.note, LastChange: d.LastChange}
			if !r.fetchedAt.IsZero() {
				out.FetchedAt = r.fetchedAt.UTC().Format(time.RFC3339)
			}
			all := in.Section == "all"
			if all || in.Section == "indicators" {
				out.Indicators, out.Drawings = d.Indicators, d.Drawings
			}
			if all || in.Section == "parameters" {
				p := d.Parameters
				out.Parameters = &p
				out.Examples = d.Examples
			}
			if all || in.Section == "limits" {
				out.Limits = d.Limits
			}
			if all || in.Section == "exchanges" {
				out.Exchanges = d.Exchanges
			}
			return out, nil
		})
}

// ---- get_exchanges ----

// ExchangesIn is empty: the tool lists every exchange.
type ExchangesIn struct{}

// Exchange is one exchange id with our name and type.
type Exchange struct {
	ID   string `json:"id" jsonschema:"use as EXCHANGE in EXCHANGE:SYMBOL and in get_symbols"`
	Name string `json:"name"`
	Type string `json:"type" mcp:"enum=crypto|forex|stock|index|futures|bond|other"`
}

// ExchangesOut lists exchanges sorted by type, then name.
type ExchangesOut struct {
	Exchanges []Exchange `json:"exchanges"`
	Count     int        `json:"count"`
	UpdatedAt string     `json:"updatedAt,omitempty" jsonschema:"when chart-img last updated the list"`
	Cached    bool       `json:"cached"`
	Stale     bool       `json:"stale" jsonschema:"chart-img could not be reached; this is the last good list"`
}

// extra names ids the docs' symbol tables do not cover.
var extraExchanges = map[string]Exchange{
	"AMEX": {Name: "NYSE Arca (AMEX)", Type: "stock"}, "FX": {Name: "FXCM", Type: "forex"},
	"TVC": {Name: "TradingView (TVC)", Type: "index"}, "SP": {Name: "S&P Dow Jones Indices", Type: "index"},
	"DJ": {Name: "Dow Jones", Type: "index"}, "CBOE": {Name: "Cboe", Type: "index"}, "BITSTAMP": {Name: "Bitstamp", Type: "crypto"},
	"ADX": {Name: "Abu Dhabi Securities Exchange", Type: "stock"}, "ACTIVTRADES": {Name: "ActivTrades", Type: "forex"},
	"AFTERPRIME": {Name: "Afterprime", Type: "forex"}, "CRYPTOCAP": {Name: "Crypto market cap (CRYPTOCAP)", Type: "index"},
}

// Text renders the list compactly for text-only clients ("crypto: Binance=BINANCE, …"),
// a third of the JSON's size; the structured content carries the full list.
func (o ExchangesOut) Text() string {
	var b strings.Builder
	b.Grow(len(o.Exchanges) * 24)
	fmt.Fprintf(&b, "%d exchanges", o.Count)
	if o.Stale {
		b.WriteString(" (stale: chart-img unreachable)")
	}
	last := ""
	for _, e := range o.Exchanges {
		if e.Type != last {
			b.WriteString("\n")
			b.WriteString(e.Type)
			b.WriteString(": ")
			last = e.Type
		} else {
			b.WriteString(", ")
		}
		if e.Name != e.ID {
			b.WriteString(e.Name)
			b.WriteByte('=')
		}
		b.WriteString(e.ID)
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
	return toolkit.New(toolkit.Def{Name: "get_exchanges", Title: "List chart-img exchanges", Toolset: "market",
		Description: `List the exchange ids chart-img can chart (v3 exchange list, cached 1 h), with a name and type (crypto, forex, stock, index, futures, bond, other) from our table — the API itself gives ids only. Sorted by type, then name.
Use the id as EXCHANGE in EXCHANGE:SYMBOL, or pass it to get_symbols. Needs CHART_IMG_API_KEY.`,
		Hints: toolkit.RemoteRead},
		func(ctx context.Context, _ ExchangesIn) (ExchangesOut, error) {
			list, meta, err := s.exchanges.Get(ctx, "list", func(ctx context.Context) (client.ExchangeList, error) { return s.c.Exchanges(ctx) })
			if err != nil {
				return ExchangesOut{}, err
			}
			docs := s.current().docs
			if m := s.exMemo.Load(); m != nil && m.docs == docs && sameList(m.ids, list.Payload) {
				out := m.out // the sorted list is reused while neither the ids nor the docs change
				out.Cached, out.Stale = meta.Hit, meta.Stale
				return out, nil
			}
			table := exchangeTable(docs)
			out := ExchangesOut{Exchanges: make([]Exchange, 0, len(list.Payload)), Cached: meta.Hit, Stale: meta.Stale}
			for _, id := range list.Payload {
				e, ok := table[id]
				if !ok {
					e = Exchange{Name: id, Type: "other"}
				}
				e.ID = id
				out.Exchanges = append(out.Exchanges, e)
			}
			sort.Slice(out.Exchanges, func(i, j int) bool {
				a, b := out.Exchanges[i], out.Exchanges[j]
				if typeOrder[a.Type] != typeOrder[b.Type] {
					return typeOrder[a.Type] < typeOrder[b.Type]
				}
				if a.Name != b.Name {
					return strings.ToLower(a.Name) < strings.ToLower(b.Name)
				}
				return a.ID < b.ID
			})
			out.Count = len(out.Exchanges)
			if list.UpdatedAt != nil {
				out.UpdatedAt = *list.UpdatedAt
			}
			s.exMemo.Store(&exchangesMemo{docs: docs, ids: list.Payload, out: out})
			return out, nil
		})
}

// exchangesMemo is the last sorted answer and what it was built from.
type exchangesMemo struct {
	docs *docsparse.Docs
	ids  []string
	out  ExchangesOut
}

// sameList compares by identity first (the cache hands out the same slice).
func sameList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ---- get_symbols ----

// SymbolsIn is get_symbols' input.
type SymbolsIn struct {
	Exchange string `json:"exchange" jsonschema:"exchange id from get_exchanges, e.g. BINANCE or NASDAQ" mcp:"minLength=1;maxLength=40;pattern=^[A-Za-z0-9_.]+$"`
	Search   string `json:"search,omitempty" jsonschema:"case-insensitive text matched against the symbol and its description" mcp:"maxLength=100"`
	Limit    int    `json:"limit,omitempty" jsonschema:"maximum symbols returned" mcp:"min=1;max=500;default=50"`
}

// SymbolOut is one symbol; fullSymbol goes into a config as is.
type SymbolOut struct {
	Symbol      string `json:"symbol"`
	FullSymbol  string `json:"fullSymbol" jsonschema:"EXCHANGE:SYMBOL for config.symbol"`
	Description string `json:"description"`
	Type        string `json:"type"`
	Currency    string `json:"currency,omitempty"`
}

// SymbolsOut lists matching symbols.
type SymbolsOut struct {
	Exchange  string      `json:"exchange"`
	Symbols   []SymbolOut `json:"symbols"`
	Count     int         `json:"count"`
	Total     int         `json:"total" jsonschema:"matches before the limit"`
	Truncated bool        `json:"truncated"`
	UpdatedAt string      `json:"updatedAt,omitempty"`
	Cached    bool        `json:"cached"`
	Stale     bool        `json:"stale"`
}

func (s *Service) symbolsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_symbols", Title: "Search an exchange's symbols", Toolset: "market",
		Description: `List or search the symbols of one exchange (v3 exchange symbols, cached 1 h per exchange, filtered here by search).
Returns fullSymbol (EXCHANGE:SYMBOL) ready for config.symbol, with description, type (spot, swap, stock, index, forex…) and currency. Unknown exchange → invalid_argument: call get_exchanges. Needs CHART_IMG_API_KEY.`,
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
						Description: sy.Description, Type: sy.Type, Currency: sy.CurrencyCode})
				}
			}
			out.Count, out.Truncated = len(out.Symbols), out.Total > len(out.Symbols)
			if list.UpdatedAt != nil {
				out.UpdatedAt = *list.UpdatedAt
			}
			return out, nil
		})
}

// ---- construct_chart_config ----

// ConstructIn is construct_chart_config's input.
type ConstructIn struct {
	NaturalLanguage string          `json:"naturalLanguage" jsonschema:"the chart request in plain English, e.g. 'Apple daily with 50 and 200 day MAs and RSI over the last year, dark'" mcp:"minLength=1;maxLength=2000"`
	Symbol          string          `json:"symbol,omitempty" jsonschema:"overrides the text: EXCHANGE:SYMBOL, a ticker or a name" mcp:"maxLength=100"`
	Exchange        string          `json:"exchange,omitempty" jsonschema:"exchange id for a bare ticker, or to move a crypto to that exchange" mcp:"maxLength=40"`
	Preferences     *nl.Preferences `json:"preferences,omitempty" jsonschema:"override what the text says"`
}

func (s *Service) constructTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "construct_chart_config", Title: "Build a chart config from text", Toolset: "charts",
		Description: `Turn a chart request in plain English into a chart-img v2 config, deterministically (no model, no network).
Understands names and tickers (bitcoin, AAPL, EUR/USD, S&P 500, NASDAQ:MSFT), ranges (today, last week, 3 months, YTD, all time), intervals (15 minute, 4h, daily, weekly), indicators with inputs (RSI 21, 50 and 200 day MAs, 20 EMA, Bollinger Bands (20, 2.5), MACD 12 26 9 and the rest of the documented list), theme, style (candles, line, heikin ashi…), size (1280x720), horizontal lines at a price. preferences override the text.
Returns {config, reasoning, warnings}: anything it could not resolve is a warning, never a guess. Next: validate_chart_config, then generate_chart_image.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ConstructIn) (nl.Result, error) {
			req := nl.Request{Text: in.NaturalLanguage, Symbol: in.Symbol, Exchange: in.Exchange}
			if in.Preferences != nil {
				req.Prefs = *in.Preferences
			}
			return s.current().builder.Build(req), nil
		})
}

// ---- validate_chart_config ----

// ValidateIn is validate_chart_config's input.
type ValidateIn struct {
	Config    map[string]any `json:"config" jsonschema:"a chart-img v2 request body (as construct_chart_config returns)"`
	PlanLevel string         `json:"planLevel,omitempty" jsonschema:"plan to check limits against; default CHART_IMG_PLAN" mcp:"enum=BASIC|PRO|MEGA|ULTRA|ENTERPRISE"`
}

func (s *Service) validateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "validate_chart_config", Title: "Validate a chart config", Toolset: "charts",
		Description: `Check a chart-img v2 config before spending quota: required fields and formats (symbol EXCHANGE:SYMBOL, ISO 8601 ranges), every value against the documented sets (intervals, ranges, styles, themes, study display names and their input keys, types and bounds, drawings' required inputs), and the plan's resolution and combined studies+drawings limit (BASIC 800x600 and 3, PRO 1920x1080 and 5, MEGA 1920x1600 and 10, ULTRA/ENTERPRISE 2048x1920 and 25/50).
Returns {valid, errors[{field,message,severity}], suggestions, rateLimitCheck}; warnings do not make it invalid. Related: construct_chart_config, generate_chart_image.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ValidateIn) (validate.Result, error) {
			plan, err := s.plan(in.PlanLevel)
			if err != nil {
				return validate.Result{}, err
			}
			if in.Config == nil {
				return validate.Result{}, envelope.Invalid("config", "config is required: a chart-img v2 request body object")
			}
			return s.current().validator.Validate(in.Config, plan), nil
		})
}

func (s *Service) plan(name string) (chart.Plan, error) {
	if name == "" {
		name = s.c.Plan().Name
	}
	p, ok := s.current().validator.Plan(name)
	if !ok {
		return p, envelope.Invalid("planLevel", "planLevel must be one of %s", strings.Join(chart.PlanNames, ", "))
	}
	return p, nil
}

// ---- generate_chart_image ----

// GenerateIn is generate_chart_image's input.
type GenerateIn struct {
	Config  map[string]any `json:"config" jsonschema:"a chart-img v2 request body (as construct_chart_config returns)"`
	Storage bool           `json:"storage,omitempty" jsonschema:"save to chart-img's public storage and return its URL and expiry instead of the image bytes"`
	Format  string         `json:"format,omitempty" jsonschema:"image format; overrides config.format" mcp:"enum=png|jpeg"`
}

// ImageOut is the chart's metadata; the image itself is an image content block.
type ImageOut struct {
	Symbol      string `json:"symbol"`
	Format      string `json:"format" mcp:"enum=png|jpeg"`
	MimeType    string `json:"mimeType"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Bytes       int    `json:"bytes,omitempty" jsonschema:"image size; absent with storage"`
	Plan        string `json:"plan"`
	GeneratedAt string `json:"generatedAt"`
	Storage     bool   `json:"storage"`
	URL         string `json:"url,omitempty" jsonschema:"public image URL (storage only)"`
	Expire      string `json:"expire,omitempty" jsonschema:"when the stored image is deleted (storage only; plan's storage days)"`
	ETag        string `json:"etag,omitempty"`

	image []byte
}

// ExtraContent adds the image so clients display it.
// With storage, a resource link to the public URL instead.
func (o ImageOut) ExtraContent() []mcp.Content {
	switch {
	case len(o.image) > 0:
		return []mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(o.image), o.MimeType)}
	case o.URL != "":
		return []mcp.Content{mcp.NewResourceLink(o.URL, o.Symbol+" chart", "chart-img public image, deleted at "+o.Expire, o.MimeType)}
	}
	return nil
}

func (s *Service) generateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "generate_chart_image", Title: "Render a chart image", Toolset: "charts",
		Description: `Render a chart-img v2 config as an image (PNG or JPEG) and return it as image content, plus metadata; with storage=true, chart-img stores it publicly and the URL and expiry are returned instead.
The config is validated first against CHART_IMG_PLAN (invalid → invalid_argument with the errors, no quota spent). Each call spends one request of the plan's quota (per second and per day); 429 and 5xx are retried with backoff. Plan limits answer permission_denied naming the limit. Needs CHART_IMG_API_KEY.
Build configs with construct_chart_config; check them with validate_chart_config.`,
		Hints: toolkit.Hints{ReadOnly: false, Destructive: false, Idempotent: true, OpenWorld: true}},
		func(ctx context.Context, in GenerateIn) (ImageOut, error) {
			if in.Config == nil {
				return ImageOut{}, envelope.Invalid("config", "config is required: a chart-img v2 request body object")
			}
			cfg := make(map[string]any, len(in.Config)+1)
			for k, v := range in.Config {
				cfg[k] = v
			}
			if in.Format != "" {
				cfg["format"] = in.Format
			}
			plan := s.c.Plan()
			res := s.current().validator.Validate(cfg, plan)
			if !res.Valid {
				var msgs []string
				for _, e := range res.Errors {
					if e.Severity == "error" && len(msgs) < 4 {
						msgs = append(msgs, e.Field+": "+e.Message)
					}
				}
				return ImageOut{}, envelope.Invalid("config", "the config would be rejected (%s); fix it (validate_chart_config lists everything) — no quota was spent", strings.Join(msgs, "; ")).
					WithDetail("errors", res.Errors).WithDetail("suggestions", res.Suggestions)
			}
			out := ImageOut{Plan: plan.Name, GeneratedAt: time.Now().UTC().Format(time.RFC3339), Storage: in.Storage}
			out.Symbol, _ = cfg["symbol"].(string)
			if out.Symbol == "" {
				out.Symbol = "BINANCE:BTCUSDT"
			}
			out.Format, _ = cfg["format"].(string)
			if out.Format == "" {
				out.Format = "png"
			}
			out.MimeType = "image/" + out.Format
			if in.Storage {
				st, err := s.c.Store(ctx, cfg)
				if err != nil {
					return ImageOut{}, err
				}
				out.URL, out.Expire, out.ETag = st.URL, st.Expire, st.ETag
				out.Width, out.Height = intOr(cfg["width"], chart.DefaultWidth), intOr(cfg["height"], chart.DefaultHeight)
				return out, nil
			}
			img, err := s.c.Chart(ctx, cfg)
			if err != nil {
				return ImageOut{}, err
			}
			out.image, out.Bytes, out.MimeType, out.Width, out.Height = img.Bytes, len(img.Bytes), img.MIME, img.Width, img.Height
			out.Format = strings.TrimPrefix(img.MIME, "image/")
			return out, nil
		})
}

func intOr(v any, d int) int {
	if f, ok := v.(float64); ok && f > 0 {
		return int(f)
	}
	return d
}
