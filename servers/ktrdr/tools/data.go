package tools

import (
	"context"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type loadIn struct {
	Symbol    string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	Mode      string `json:"mode,omitempty" jsonschema:"tail newer, backfill older, full both, local cache only (3ba55e75)" mcp:"enum=tail|backfill|full|local;default=tail"`
	StartDate string `json:"start_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate   string `json:"end_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
}

func triggerDataLoading(c *client.Client, sc *summaryCache) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "trigger_data_loading", Title: "Trigger data loading", Toolset: setData, Hints: toolkit.RemoteWrite,
		Description: `Start a background load filling the backend's OHLCV cache for one symbol and timeframe (from IB except mode local). Each call starts a new load.
Returns operation_id for wait_for_operation.
Errors: invalid_argument (details.fields; local on HEAD), upstream_error.
Related: get_data_summary, get_market_data.`},
		func(ctx context.Context, in loadIn) (client.LoadStarted, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			if in.Mode == "" {
				in.Mode = client.DefaultLoadMode
			}
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.LoadStarted{}, err
			}
			// The load will change what get_data_summary reports.
			sc.forget(ctx, in.Symbol, in.Timeframe)
			return c.LoadData(ctx, client.LoadRequest{Symbol: in.Symbol, Timeframe: in.Timeframe, Mode: in.Mode, StartDate: in.StartDate, EndDate: in.EndDate})
		})
}

type marketIn struct {
	Symbol           string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe        string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	StartDate        string `json:"start_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate          string `json:"end_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	TradingHoursOnly bool   `json:"trading_hours_only,omitempty"`
	IncludeExtended  bool   `json:"include_extended,omitempty" jsonschema:"with trading_hours_only: keep pre-market and after-hours bars"`
	Limit            int    `json:"limit,omitempty" jsonschema:"newest bars" mcp:"min=1;max=500;default=50"`
}

// marketOut is the bars with what they cover of the cached range.
type marketOut struct {
	client.MarketData
	envelope.Coverage
}

// barsCoverage: limit keeps the newest bars, so a limited answer lacks the
// older ones; nothing cached is said, not left as an empty list.
func barsCoverage(md client.MarketData) envelope.Coverage {
	switch {
	case md.Count == 0:
		return envelope.Nothing("no bars cached for " + md.Symbol + " " + md.Timeframe + " in this range; trigger_data_loading loads them")
	case md.Limited || md.Count < md.AvailableCount:
		return envelope.Cut(envelope.Truncated, fmt.Sprintf("the %d older bars of %d in range", md.AvailableCount-md.Count, md.AvailableCount),
			"raise limit (max 500) or set end_date before "+firstDate(md))
	}
	return envelope.Whole()
}

func firstDate(md client.MarketData) string {
	if len(md.Dates) > 0 {
		return md.Dates[0]
	}
	return md.Start
}

func getMarketData(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_market_data", Title: "Get market data", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `Get cached OHLCV bars for a symbol and timeframe: the newest limit bars in the date range, oldest first.
Nothing cached is count 0, not an error: load it with trigger_data_loading.
Errors: invalid_argument.
Related: get_data_summary, get_symbols.`},
		func(ctx context.Context, in marketIn) (marketOut, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			if in.Limit == 0 {
				in.Limit = 50
			}
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return marketOut{}, err
			}
			if in.IncludeExtended && !in.TradingHoursOnly {
				// The backend reads include_extended only to widen the trading-hours
				// filter (ktrdr/api/endpoints/data.py get_cached_data): alone it
				// changes nothing, so say so rather than ignore it.
				return marketOut{}, envelope.Invalid("include_extended", "include_extended only widens trading_hours_only to pre-market and after-hours bars; set trading_hours_only true as well, or leave both out for every bar")
			}
			md, err := c.MarketData(ctx, client.MarketQuery{Symbol: in.Symbol, Timeframe: in.Timeframe, StartDate: in.StartDate,
				EndDate: in.EndDate, TradingHoursOnly: in.TradingHoursOnly, IncludeExtended: in.IncludeExtended, Limit: in.Limit})
			if err != nil {
				return marketOut{}, err
			}
			return marketOut{MarketData: md, Coverage: barsCoverage(md)}, nil
		})
}

type summaryIn struct {
	Symbol    string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
}

type summaryOut struct {
	Symbol        string      `json:"symbol"`
	Timeframe     string      `json:"timeframe"`
	DataAvailable bool        `json:"data_available"`
	BarCount      int         `json:"bar_count"`
	FirstDate     string      `json:"first_date,omitempty"`
	LastDate      string      `json:"last_date,omitempty"`
	LastBar       *[5]float64 `json:"last_bar,omitempty" jsonschema:"[o,h,l,c,v]"`
}

func getDataSummary(c *client.Client, sc *summaryCache) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_data_summary", Title: "Get data summary", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `Check what the backend has cached for a symbol and timeframe (bar count, first and last date, last bar) without fetching the bars. Nothing cached: data_available false.
Related: get_market_data, trigger_data_loading.`},
		func(ctx context.Context, in summaryIn) (summaryOut, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			return sc.get(ctx, in.Symbol, in.Timeframe, func(ctx context.Context) (summaryOut, error) {
				return fetchSummary(ctx, c, in.Symbol, in.Timeframe)
			})
		})
}

// fetchSummary asks the backend for the cached range (POST /data/range: first
// and last date and the bar count, at 3ba55e75 and HEAD) and the newest bar
// (GET /data/{symbol}/{timeframe} with limit=1). Nothing cached is
// data_available false from either; a refusal of either is the tool's error.
func fetchSummary(ctx context.Context, c *client.Client, symbol, timeframe string) (summaryOut, error) {
	rng, found, err := c.DataRange(ctx, symbol, timeframe)
	if err != nil {
		return summaryOut{}, err
	}
	md, err := c.MarketData(ctx, client.MarketQuery{Symbol: symbol, Timeframe: timeframe, Limit: 1})
	if err != nil {
		return summaryOut{}, err
	}
	out := summaryOut{Symbol: symbol, Timeframe: timeframe, DataAvailable: md.AvailableCount > 0, BarCount: md.AvailableCount}
	if md.Count > 0 {
		out.LastDate = md.End
		last := md.OHLCV[md.Count-1]
		out.LastBar = &last
		if md.AvailableCount == 1 {
			out.FirstDate = md.Start
		}
	}
	if found {
		out.DataAvailable, out.FirstDate = true, rng.StartDate
		if out.LastDate == "" {
			out.LastDate = rng.EndDate
		}
		if out.BarCount == 0 {
			out.BarCount = int(rng.PointCount)
		}
	}
	return out, nil
}

type symbolsOut struct {
	Symbols []symbolBrief `json:"symbols"`
	envelope.Coverage
}

func getSymbols(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_symbols", Title: "Get symbols", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `List the symbols the backend knows with their type (stock, forex…) and cached timeframes; detail adds exchange, currency, trading hours.
Use before trigger_data_loading or get_market_data to pick a valid symbol and timeframe.
Related: get_data_summary.`},
		func(ctx context.Context, in detailIn) (symbolsOut, error) {
			s, err := c.Symbols(ctx)
			if err != nil {
				return symbolsOut{}, err
			}
			return symbolsOut{Symbols: briefSymbols(s, in.Detail), Coverage: wholeOr(len(s), "the backend knows no symbols")}, nil
		})
}

type indicatorsIn struct {
	Type string `json:"type,omitempty" mcp:"enum=momentum|trend|volatility|volume|support_resistance|multi_purpose"`
	detailIn
}

type indicatorsOut struct {
	Indicators []indicatorBrief `json:"indicators"`
	envelope.Coverage
}

func getIndicators(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_indicators", Title: "Get indicators", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `List the technical indicators strategies can use, with their parameter names; detail adds descriptions and each parameter's type, default and bounds.
Errors: upstream_error (the backend's indicator registry failed).
Related: get_strategies.`},
		func(ctx context.Context, in indicatorsIn) (indicatorsOut, error) {
			all, err := c.Indicators(ctx)
			if err != nil {
				return indicatorsOut{}, err
			}
			out := indicatorsOut{Indicators: []indicatorBrief{}}
			for _, ind := range all {
				if in.Type == "" || ind.Type == in.Type {
					out.Indicators = append(out.Indicators, briefIndicator(ind, in.Detail))
				}
			}
			none := "the backend lists no indicators"
			if in.Type != "" {
				none = "no indicator of type " + in.Type + "; leave type out for all"
			}
			out.Coverage = wholeOr(len(out.Indicators), none)
			return out, nil
		})
}
