package tools

import (
	"context"
	"math"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type backtestIn struct {
	StrategyName   string   `json:"strategy_name" jsonschema:"from get_strategies" mcp:"minLength=1;maxLength=200"`
	StartDate      string   `json:"start_date" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate        string   `json:"end_date" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	Symbol         string   `json:"symbol,omitempty" jsonschema:"default: the strategy's" mcp:"maxLength=32;pattern=^[A-Za-z0-9._:^-]*$"`
	Timeframe      string   `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M"`
	InitialCapital *float64 `json:"initial_capital,omitempty" mcp:"min=1;default=100000"`
	Commission     *float64 `json:"commission,omitempty" mcp:"min=0;max=0.1;default=0.001"`
	Slippage       *float64 `json:"slippage,omitempty" mcp:"min=0;max=0.1;default=0.0005"`
	ModelPath      string   `json:"model_path,omitempty" mcp:"maxLength=500"`
}

func startBacktest(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "start_backtest", Title: "Start backtest", Toolset: setTraining, Hints: toolkit.RemoteWrite,
		Description: `Start backtesting a trained strategy over a date range; symbol, timeframe default to the strategy's. Each call starts one.
Returns operation_id: wait_for_operation (progress), then get_backtest_results.
Errors: invalid_argument, not_found, upstream_unavailable (no workers).`},
		func(ctx context.Context, in backtestIn) (client.BacktestStarted, error) {
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.BacktestStarted{}, err
			}
			return c.StartBacktest(ctx, client.BacktestRequest{StrategyName: in.StrategyName, Symbol: in.Symbol, Timeframe: in.Timeframe,
				StartDate: in.StartDate, EndDate: in.EndDate, InitialCapital: in.InitialCapital, Commission: in.Commission,
				Slippage: in.Slippage, ModelPath: in.ModelPath})
		})
}

// backtestOut is a finished backtest's headline figures, read from the
// operation's results (BacktestResults.to_dict, kpiteira/ktrdr
// ktrdr/backtesting/engine.py; PerformanceMetrics.to_dict,
// ktrdr/backtesting/performance.py), with the final capital worked out so
// the model does no arithmetic; metrics holds every figure as sent. The
// backend's *_pct and win_rate are decimals 0-1 (PerformanceTracker,
// ktrdr/backtesting/performance.py); the headline percentages are ×100.
type backtestOut struct {
	OperationID    string         `json:"operation_id"`
	Status         string         `json:"status"`
	Error          string         `json:"error,omitempty"`
	Strategy       string         `json:"strategy,omitempty"`
	Symbol         string         `json:"symbol,omitempty"`
	Timeframe      string         `json:"timeframe,omitempty"`
	InitialCapital float64        `json:"initial_capital,omitempty"`
	FinalCapital   float64        `json:"final_capital,omitempty"`
	TotalReturnPct float64        `json:"total_return_pct" jsonschema:"percent (8.42 = 8.42%); metrics.total_return_pct is the backend's 0-1"`
	MaxDrawdownPct float64        `json:"max_drawdown_pct" jsonschema:"percent"`
	Sharpe         float64        `json:"sharpe_ratio"`
	Trades         int            `json:"total_trades"`
	WinRate        float64        `json:"win_rate" jsonschema:"as sent (0-1)"`
	Metrics        map[string]any `json:"metrics,omitempty" mcp:"type=object"`
}

func getBacktestResults(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_backtest_results", Title: "Get backtest results", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a finished backtest's figures: return %, final capital, max drawdown %, Sharpe, trades, win rate; metrics has all (profit factor, Sortino…).
Errors: conflict (still running, or cancelled: resume_operation), not_found, invalid_argument (not a backtest).`},
		func(ctx context.Context, in operationIn) (backtestOut, error) {
			r, err := c.OperationResults(ctx, in.OperationID)
			if err != nil {
				return backtestOut{}, err
			}
			out, err := readBacktest(r)
			if err == nil && out.Status == "failed" && out.Error == "" {
				// A failed operation's results are its (empty) result_summary;
				// the reason is the operation's error_message.
				if op, opErr := c.GetOperation(ctx, in.OperationID); opErr == nil {
					out.Error = op.ErrorMessage
				}
			}
			return out, err
		})
}

// readBacktest picks the headline figures out of a backtest's results.
func readBacktest(r client.Results) (backtestOut, error) {
	if r.OperationType != "" && r.OperationType != "backtesting" {
		return backtestOut{}, envelope.Invalid("operation_id", "operation %s is a %s operation, not a backtest; get_operation_results shows its outcome, list_operations operation_type=backtesting lists backtests", r.OperationID, r.OperationType).
			WithDetail("operation_type", r.OperationType)
	}
	out := backtestOut{OperationID: r.OperationID, Status: r.Status}
	res := r.Results
	if r.Status == "failed" {
		out.Error, _ = res["error"].(string)
		return out, nil
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	num := func(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }
	out.Strategy, out.Symbol, out.Timeframe = str(res, "strategy_name"), str(res, "symbol"), str(res, "timeframe")
	cfg, _ := res["config"].(map[string]any)
	m, _ := res["metrics"].(map[string]any)
	if m == nil {
		return backtestOut{}, envelope.New(envelope.UpstreamError, "backtest %s completed without metrics in its results; get_operation_results shows what the backend sent", r.OperationID)
	}
	out.Metrics = m
	out.InitialCapital = num(cfg, "initial_capital")
	if out.InitialCapital > 0 {
		out.FinalCapital = math.Round((out.InitialCapital+num(m, "total_return"))*100) / 100
	}
	// total_return_pct and max_drawdown_pct are decimals 0-1 despite their
	// names (PerformanceTracker: "Return as decimal 0-1"); shown as percent.
	pct := func(k string) float64 { return math.Round(num(m, k)*10000) / 100 }
	out.TotalReturnPct, out.MaxDrawdownPct = pct("total_return_pct"), pct("max_drawdown_pct")
	out.Sharpe, out.WinRate, out.Trades = num(m, "sharpe_ratio"), num(m, "win_rate"), int(num(m, "total_trades"))
	return out, nil
}
