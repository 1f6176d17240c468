package nl

import (
	"slices"
	"testing"
)

// TestTradingViewSettingLabels: the labels of TradingView's own settings
// dialogs bind to the input they name. MACD: Fast Length, Slow Length,
// Signal Smoothing (in_0..in_2). Stochastic: %K Length, %K Smoothing, %D
// Smoothing, whose defaults 14, 1, 3 are chart-img's in_0 "K" 14, in_1 "D" 1,
// in_2 "smooth" 3. Stochastic RSI documents "smooth K" and "smooth D".
func TestTradingViewSettingLabels(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct {
		text  string
		study string
	}{
		{"BTC MACD with fast length 12, slow length 26 and signal smoothing 9", "MACD{in_0=12,in_1=26,in_2=9}"},
		{"BTC MACD fast length 8, slow length 21, signal smoothing 5", "MACD{in_0=8,in_1=21,in_2=5}"},
		{"SPY stochastic %K length 14, %K smoothing 3, %D smoothing 3", "Stochastic{in_0=14,in_1=3,in_2=3}"},
		{"SPY stochastic with K length 5, K smoothing 3 and D smoothing 3", "Stochastic{in_0=5,in_1=3,in_2=3}"},
		{"SPY stochastic %D smoothing 5", "Stochastic{in_2=5}"},
		{"BTC stoch rsi with smooth K 4 and smooth D 5", "Stochastic RSI{in_2=4,in_3=5}"},
		// TradingView's legend order (K, D, RSI length, Stochastic length)
		{"BTC stoch rsi 3 3 14 14", "Stochastic RSI{in_0=14,in_1=14,in_2=3,in_3=3}"},
		{"BTC Stoch RSI (3, 3, 21, 14)", "Stochastic RSI{in_0=21,in_1=14,in_2=3,in_3=3}"},
		{"BTC stochastic rsi 14 14 3 3", "Stochastic RSI{in_0=14,in_1=14,in_2=3,in_3=3}"},
		// the studies a Stochastic RSI is built on name its lengths: no second study
		{"BTC stoch rsi with rsi length 21", "Stochastic RSI{in_0=21}"},
		{"BTC stoch rsi with stochastic length 10", "Stochastic RSI{in_1=10}"},
		{"BTC stochastic RSI with RSI length 14 and stochastic length 20", "Stochastic RSI{in_0=14,in_1=20}"},
	} {
		r := b.Build(Request{Text: c.text})
		if len(r.Config.Studies) != 1 || len(r.Warnings) != 0 {
			t.Errorf("%q: studies %+v, warnings %q; want only %s", c.text, r.Config.Studies, r.Warnings, c.study)
			continue
		}
		if got := study(r.Config.Studies[0].Name, r.Config.Studies[0].Input); got != c.study {
			t.Errorf("%q: %s, want %s", c.text, got, c.study)
		}
	}
}

// TestCompactStudyLists: in "MACD 12,26,9 RSI 14" the numbers after a study
// are its settings, up to as many as it has main inputs, though another
// study's name follows; only what is left over is the next study's
// ("RSI 14 50 EMA"), and a run that starts with "and" is the next one's.
func TestCompactStudyLists(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct {
		text    string
		studies []string
	}{
		{"TSLA MACD 12,26,9 RSI 14 BB 20,2 last 90 days 4h", []string{"MACD{in_0=12,in_1=26,in_2=9}", "Relative Strength Index{length=14}", "Bollinger Bands{in_0=20,in_1=2}"}},
		{"BTC MACD 12 26 9 RSI 14", []string{"MACD{in_0=12,in_1=26,in_2=9}", "Relative Strength Index{length=14}"}},
		{"BTC MACD fast 12 slow 26 signal 9 RSI 14", []string{"MACD{in_0=12,in_1=26,in_2=9}", "Relative Strength Index{length=14}"}},
		{"BTC supertrend 10 3 EMA 200", []string{"Super Trend{in_0=10,in_1=3}", "Moving Average Exponential{length=200}"}},
		{"BTC RSI 14, 50 EMA", []string{"Relative Strength Index{length=14}", "Moving Average Exponential{length=50}"}},
		{"BTC rsi14 ema20 sma200 bb20 macd12", []string{"Relative Strength Index{length=14}", "Moving Average Exponential{length=20}", "Moving Average{length=200}", "Bollinger Bands{in_0=20}", "MACD{in_0=12}"}},
		// unchanged readings
		{"BTC RSI 14 50 EMA", []string{"Relative Strength Index{length=14}", "Moving Average Exponential{length=50}"}},
		{"BTC RSI and 50 EMA", []string{"Relative Strength Index", "Moving Average Exponential{length=50}"}},
		{"BTC 20 EMA 50 EMA", []string{"Moving Average Exponential{length=20}", "Moving Average Exponential{length=50}"}},
		{"BTC 20-day SMA 50 EMA", []string{"Moving Average{length=20}", "Moving Average Exponential{length=50}"}},
		{"BTC SMA 50 EMA 20", []string{"Moving Average{length=50}", "Moving Average Exponential{length=20}"}},
		{"BTC MACD 10 3 plus 14 SMA", []string{"MACD{in_0=10,in_1=3}", "Moving Average{length=14}"}},
		{"BTC Ichimoku (14), 200 Bollinger Bands", []string{"Ichimoku Cloud{in_0=14}", "Bollinger Bands{in_0=200}"}},
		{"BTC RSI with 200 EMA", []string{"Relative Strength Index", "Moving Average Exponential{length=200}"}},
		{"BTC BB 200 200 EMA", []string{"Bollinger Bands{in_0=200}", "Moving Average Exponential{length=200}"}},
		{"Microsoft weekly, last 5 years, 50 and 200 SMA", []string{"Moving Average{length=50}", "Moving Average{length=200}"}},
	} {
		r := b.Build(Request{Text: c.text})
		var got []string
		for _, st := range r.Config.Studies {
			got = append(got, study(st.Name, st.Input))
		}
		if !slices.Equal(got, c.studies) || len(r.Warnings) != 0 {
			t.Errorf("%q: %v, warnings %q; want %v", c.text, got, r.Warnings, c.studies)
		}
	}
}
