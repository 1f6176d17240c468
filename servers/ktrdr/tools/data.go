package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type loadIn struct {
	Symbol    string `json:"symbol" jsonschema:"e.g. AAPL, EURUSD" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	Mode      string `json:"mode,omitempty" jsonschema:"tail: newer bars; backfill: older; full: both; local: cache only (3ba55e75 only)" mcp:"enum=tail|backfill|full|local;default=tail"`
	StartDate string `json:"start_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate   string `json:"end_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
}

func triggerDataLoading(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "trigger_data_loading", Title: "Trigger data loading", Toolset: setData, Hints: toolkit.RemoteWrite,
		Description: `Start a background data-load operation that fills the backend's OHLCV cache for one symbol and timeframe (from IB for tail/backfill/full).
Returns operation_id, status "started", the backend's message and the route used. The load runs for seconds to minutes: follow it with wait_for_operation. Not idempotent: each call starts a new operation.
Errors: invalid_argument (details.fields; local on HEAD), upstream_error (no operation id in the answer; its message is included), upstream_unavailable.
Example: {"symbol":"AAPL","timeframe":"1h","mode":"tail"}
Related: wait_for_operation, get_data_summary, get_market_data.`},
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
			return c.LoadData(ctx, client.LoadRequest{Symbol: in.Symbol, Timeframe: in.Timeframe, Mode: in.Mode, StartDate: in.StartDate, EndDate: in.EndDate})
		})
}

type marketIn struct {
	Symbol           string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe        string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	StartDate        string `json:"start_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate          string `json:"end_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	TradingHoursOnly bool   `json:"trading_hours_only,omitempty"`
	Limit            int    `json:"limit,omitempty" jsonschema:"newest bars to return" mcp:"min=1;max=500;default=50"`
}

func getMarketData(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_market_data", Title: "Get market data", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `Get cached OHLCV bars for a symbol and timeframe: the newest limit bars in the date range, oldest first.
Reads the backend cache only; nothing cached is an empty result (count 0), not an error: load it with trigger_data_loading.
Returns dates[], ohlcv[] ([open,high,low,close,volume] per date), count, available_count (in range before the limit), limited, start, end.
Errors: invalid_argument, upstream_unavailable.
Example: {"symbol":"AAPL","timeframe":"1d","limit":30}
Related: get_data_summary, get_symbols.`},
		func(ctx context.Context, in marketIn) (client.MarketData, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			if in.Limit == 0 {
				in.Limit = 50
			}
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.MarketData{}, err
			}
			return c.MarketData(ctx, client.MarketQuery{Symbol: in.Symbol, Timeframe: in.Timeframe, StartDate: in.StartDate,
				EndDate: in.EndDate, TradingHoursOnly: in.TradingHoursOnly, Limit: in.Limit})
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
	FirstDate     string      `json:"first_date,omitempty" jsonschema:"only when the backend sent every bar"`
	LastDate      string      `json:"last_date,omitempty"`
	LastBar       *[5]float64 `json:"last_bar,omitempty" jsonschema:"[open,high,low,close,volume]"`
}

func getDataSummary(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_data_summary", Title: "Get data summary", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `Check what the backend has cached for a symbol and timeframe without fetching the bars.
Returns data_available, bar_count, last_date, last_bar (and first_date when known). Nothing cached: data_available false.
Errors: upstream_unavailable.
Example: {"symbol":"MSFT","timeframe":"1d"}
Related: get_market_data, trigger_data_loading.`},
		func(ctx context.Context, in summaryIn) (summaryOut, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			md, err := c.MarketData(ctx, client.MarketQuery{Symbol: in.Symbol, Timeframe: in.Timeframe, Limit: 1})
			if err != nil {
				return summaryOut{}, err
			}
			out := summaryOut{Symbol: in.Symbol, Timeframe: in.Timeframe, DataAvailable: md.AvailableCount > 0, BarCount: md.AvailableCount}
			if md.Count > 0 {
				out.LastDate = md.End
				last := md.OHLCV[md.Count-1]
				out.LastBar = &last
				if md.AvailableCount == 1 {
					out.FirstDate = md.Start
				}
			}
			return out, nil
		})
}

type symbolsOut struct {
	Symbols []client.Symbol `json:"symbols"`
	Count   int             `json:"count"`
}

func getSymbols(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_symbols", Title: "Get symbols", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `List the symbols the backend knows: symbol, name, type (stock, forex…), exchange, currency, available_timeframes, trading_hours.
Use before trigger_data_loading or get_market_data to pick a valid symbol and timeframe.
Errors: upstream_unavailable.
Related: get_data_summary.`},
		func(ctx context.Context, _ struct{}) (symbolsOut, error) {
			s, err := c.Symbols(ctx)
			return symbolsOut{Symbols: s, Count: len(s)}, err
		})
}

type indicatorsIn struct {
	Type string `json:"type,omitempty" jsonschema:"only indicators of this type" mcp:"enum=momentum|trend|volatility|volume|support_resistance|multi_purpose"`
}

type indicatorsOut struct {
	Indicators []client.Indicator `json:"indicators"`
	Count      int                `json:"count"`
}

func getIndicators(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_indicators", Title: "Get indicators", Toolset: setData, Hints: toolkit.RemoteRead,
		Description: `List the technical indicators strategies can use: id, name, description, type, parameters (name, type, default, min_value, max_value, options).
Errors: upstream_error (the backend's indicator registry failed), upstream_unavailable.
Example: {"type":"momentum"}
Related: get_strategies.`},
		func(ctx context.Context, in indicatorsIn) (indicatorsOut, error) {
			all, err := c.Indicators(ctx)
			if err != nil {
				return indicatorsOut{}, err
			}
			out := indicatorsOut{Indicators: []client.Indicator{}}
			for _, ind := range all {
				if in.Type == "" || ind.Type == in.Type {
					out.Indicators = append(out.Indicators, ind)
				}
			}
			out.Count = len(out.Indicators)
			return out, nil
		})
}
