package fake

import (
	"fmt"
	"math"
	"time"
)

// Timeframes the backend accepts (data-load Literal and path validation).
var timeframes = []string{"1m", "5m", "15m", "30m", "1h", "2h", "4h", "1d", "1w", "1M"}

var loadModes = []string{"local", "tail", "backfill", "full"}

func timeframeStep(tf string) time.Duration {
	switch tf {
	case "1m":
		return time.Minute
	case "5m":
		return 5 * time.Minute
	case "15m":
		return 15 * time.Minute
	case "30m":
		return 30 * time.Minute
	case "1h":
		return time.Hour
	case "2h":
		return 2 * time.Hour
	case "4h":
		return 4 * time.Hour
	case "1d":
		return 24 * time.Hour
	case "1w":
		return 7 * 24 * time.Hour
	case "1M":
		return 30 * 24 * time.Hour
	}
	return 0
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

type symbolInfo struct {
	Symbol              string         `json:"symbol"`
	Name                string         `json:"name"`
	Type                string         `json:"type"`
	Exchange            string         `json:"exchange"`
	Currency            string         `json:"currency"`
	AvailableTimeframes []string       `json:"available_timeframes"`
	TradingHours        map[string]any `json:"trading_hours,omitempty"`
}

func usEquityHours() map[string]any {
	return map[string]any{
		"timezone":       "America/New_York",
		"regular_hours":  map[string]any{"start": "09:30", "end": "16:00", "name": "Regular Trading Hours"},
		"extended_hours": []any{map[string]any{"start": "04:00", "end": "09:30", "name": "Pre-Market"}, map[string]any{"start": "16:00", "end": "20:00", "name": "After-Hours"}},
		"trading_days":   []int{0, 1, 2, 3, 4},
	}
}

func seedSymbols() []symbolInfo {
	return []symbolInfo{
		{"AAPL", "Apple Inc.", "stock", "NASDAQ", "USD", []string{"1h", "1d"}, usEquityHours()},
		{"MSFT", "Microsoft Corporation", "stock", "NASDAQ", "USD", []string{"1d"}, usEquityHours()},
		{"EURUSD", "Euro / US Dollar", "forex", "IDEALPRO", "USD", []string{"1h", "4h", "1d"}, nil},
	}
}

func param(name, typ, desc string, def, lo, hi any) map[string]any {
	return map[string]any{"name": name, "type": typ, "description": desc, "default": def, "min_value": lo, "max_value": hi, "options": nil}
}

func seedIndicators() []map[string]any {
	return []map[string]any{
		{"id": "RSIIndicator", "name": "RSI", "description": "Relative Strength Index: momentum oscillator from 0 to 100", "type": "momentum",
			"parameters": []any{param("period", "int", "Lookback period", 14, 2, 100), param("source", "str", "Price column", "close", nil, nil)}},
		{"id": "SimpleMovingAverage", "name": "SMA", "description": "Simple Moving Average of the source column", "type": "trend",
			"parameters": []any{param("period", "int", "Lookback period", 20, 2, 500), param("source", "str", "Price column", "close", nil, nil)}},
		{"id": "MACDIndicator", "name": "MACD", "description": "Moving Average Convergence Divergence", "type": "trend",
			"parameters": []any{param("fast_period", "int", "Fast EMA period", 12, 2, 100), param("slow_period", "int", "Slow EMA period", 26, 2, 200), param("signal_period", "int", "Signal EMA period", 9, 2, 100)}},
		{"id": "BollingerBandsIndicator", "name": "BollingerBands", "description": "Bollinger Bands: SMA with standard-deviation envelopes", "type": "volatility",
			"parameters": []any{param("period", "int", "Lookback period", 20, 2, 200), param("multiplier", "float", "Std-dev multiplier", 2.0, 0.1, 5.0)}},
		{"id": "OBVIndicator", "name": "OBV", "description": "On-Balance Volume", "type": "volume", "parameters": []any{}},
	}
}

type strategy struct {
	Name               string             `json:"name"`
	Description        string             `json:"description"`
	Symbol             string             `json:"symbol"`
	Timeframe          string             `json:"timeframe"`
	Indicators         []map[string]any   `json:"indicators"`
	FuzzyConfig        map[string]any     `json:"fuzzy_config"`
	TrainingStatus     string             `json:"training_status"`
	AvailableVersions  []int              `json:"available_versions"`
	LatestVersion      *int               `json:"latest_version"`
	LatestTrainingDate *string            `json:"latest_training_date"`
	LatestMetrics      map[string]float64 `json:"latest_metrics"`
}

func seedStrategies() []*strategy {
	four := 4
	date := "2025-10-06T11:45:00" // seedModels' latest version
	return []*strategy{
		{Name: "neuro_mean_reversion", Description: "Neuro-fuzzy mean reversion on RSI and Bollinger Bands", Symbol: "AAPL", Timeframe: "1h",
			Indicators:     []map[string]any{{"name": "rsi", "period": 14}, {"name": "bbands", "period": 20, "multiplier": 2.0}},
			FuzzyConfig:    map[string]any{"rsi": map[string]any{"oversold": []int{0, 10, 30}, "overbought": []int{70, 90, 100}}},
			TrainingStatus: "trained", AvailableVersions: []int{1, 2, 3, 4}, LatestVersion: &four, LatestTrainingDate: &date,
			LatestMetrics: map[string]float64{"accuracy": 0.61, "precision": 0.58, "recall": 0.55, "f1_score": 0.56}},
		{Name: "trend_momentum", Description: "MACD trend following with RSI confirmation", Symbol: "MSFT", Timeframe: "1d",
			Indicators:  []map[string]any{{"name": "macd", "fast_period": 12, "slow_period": 26}, {"name": "rsi", "period": 14}},
			FuzzyConfig: map[string]any{}, TrainingStatus: "untrained", AvailableVersions: []int{}},
	}
}

type model struct {
	ModelID          string   `json:"model_id"`
	ModelName        string   `json:"model_name"`
	Symbol           string   `json:"symbol"`
	Timeframe        string   `json:"timeframe"`
	CreatedAt        string   `json:"created_at"`
	TrainingAccuracy *float64 `json:"training_accuracy"`
	TestAccuracy     *float64 `json:"test_accuracy"`
	Description      string   `json:"description"`
}

func f64(v float64) *float64 { return &v }

// seedModels are neuro_mean_reversion's four versions, one per symbol and
// timeframe it was trained on (start_training takes symbols and timeframes;
// ModelStorage keeps every version it saved, and GET /models lists each one
// with these fields: ktrdr/api/services/training_service.py
// list_trained_models; ktrdr/api/endpoints/models.py). One model would make the
// list's fixed bytes weigh more than on a backend a researcher has used.
func seedModels() []model {
	m := func(v int, sym, tf, created string, train, test float64) model {
		return model{ModelID: fmt.Sprintf("neuro_mean_reversion_v%d", v), ModelName: "neuro_mean_reversion", Symbol: sym, Timeframe: tf,
			CreatedAt: created, TrainingAccuracy: f64(train), TestAccuracy: f64(test), Description: fmt.Sprintf("neuro_mean_reversion v%d (%s %s)", v, sym, tf)}
	}
	return []model{
		m(1, "AAPL", "1h", "2025-09-30T18:00:00", 0.64, 0.61),
		m(2, "AAPL", "1d", "2025-10-02T09:30:00", 0.62, 0.57),
		m(3, "MSFT", "1d", "2025-10-03T14:10:00", 0.66, 0.59),
		m(4, "EURUSD", "1h", "2025-10-06T11:45:00", 0.6, 0.54),
	}
}

// bar is one OHLCV row with its timestamp.
type bar struct {
	t    time.Time
	ohlc [5]float64
}

// dataEnd is the last cached timestamp: the fake's data does not move with the clock.
var dataEnd = time.Date(2024, 6, 28, 19, 0, 0, 0, time.UTC)

// genBars makes n deterministic, valid bars (high ≥ open/close ≥ low) ending at dataEnd.
func genBars(symbol, tf string, n int) []bar {
	step := timeframeStep(tf)
	seed := 0.0
	for _, r := range symbol {
		seed += float64(r)
	}
	price := 50 + math.Mod(seed, 150)
	out := make([]bar, n)
	for i := 0; i < n; i++ {
		t := dataEnd.Add(-time.Duration(n-1-i) * step)
		drift := math.Sin(float64(i)/7+seed) * 0.6
		open := price
		cls := math.Max(1, price+drift)
		hi := math.Max(open, cls) + 0.25 + math.Abs(math.Cos(float64(i)))*0.3
		lo := math.Max(0.5, math.Min(open, cls)-0.25-math.Abs(math.Sin(float64(i)))*0.3)
		vol := 100000 + float64((i*7919)%50000)
		out[i] = bar{t: t, ohlc: [5]float64{round2(open), round2(hi), round2(lo), round2(cls), vol}}
		price = cls
	}
	return out
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
