package nl

import (
	"encoding/json"
	"testing"
)

// Settings that belong to a study stay inside it (the docs' RSI has
// smoothingLine/smoothingLength inputs and UpperLimit/LowerLimit overrides),
// while price levels stay price lines. Phrasing classes: TradingView's own
// setting labels ("Upper/Lower Limit", "Smoothing Line/Length") as traders
// repeat them, and overbought/oversold levels.
func TestStudySettingsStayInTheStudy(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct{ text, studies, drawings string }{
		{"BTC 4h with RSI levels at 80 and 20",
			`[{"name":"Relative Strength Index","override":{"LowerLimit.value":20,"UpperLimit.value":80}}]`, `null`},
		{"RSI 14 with its 9-period EMA smoothing",
			`[{"name":"Relative Strength Index","input":{"length":14,"smoothingLength":9,"smoothingLine":"EMA"}}]`, `null`},
		{"ETH daily RSI with overbought 75 and oversold 25",
			`[{"name":"Relative Strength Index","override":{"LowerLimit.value":25,"UpperLimit.value":75}}]`, `null`},
		{"RSI smoothed with a 9 EMA",
			`[{"name":"Relative Strength Index","input":{"smoothingLength":9,"smoothingLine":"EMA"}}]`, `null`},
		{"AAPL RSI 21 with SMA smoothing 5",
			`[{"name":"Relative Strength Index","input":{"length":21,"smoothingLength":5,"smoothingLine":"SMA"}}]`, `null`},
		{"stochastic levels 80 20",
			`[{"name":"Stochastic","override":{"LowerLimit.value":20,"UpperLimit.value":80}}]`, `null`},
		{"Williams %R with levels -10 and -90",
			`[{"name":"Williams %R","override":{"LowerLimit.value":-90,"UpperLimit.value":-10}}]`, `null`},
		{"RSI level 75",
			`[{"name":"Relative Strength Index","override":{"UpperLimit.value":75}}]`, `null`},
		// price levels stay price lines
		{"BTC with RSI and a level at 65000",
			`[{"name":"Relative Strength Index"}]`, `[{"name":"Horizontal Line","input":{"price":65000}}]`},
		{"BTC with RSI, support at 60000",
			`[{"name":"Relative Strength Index"}]`, `[{"name":"Horizontal Line","input":{"price":60000,"text":"Support"}}]`},
		// a moving average of price stays a study of its own
		{"RSI and 9 EMA",
			`[{"name":"Relative Strength Index"},{"name":"Moving Average Exponential","input":{"length":9}}]`, `null`},
		{"BTC 50 EMA with RSI",
			`[{"name":"Moving Average Exponential","input":{"length":50}},{"name":"Relative Strength Index"}]`, `null`},
	} {
		t.Run(c.text, func(t *testing.T) {
			r := b.Build(Request{Text: c.text})
			st, _ := json.Marshal(r.Config.Studies)
			dr, _ := json.Marshal(r.Config.Drawings)
			if string(st) != c.studies || string(dr) != c.drawings {
				t.Errorf("studies %s\n want %s\ndrawings %s, want %s\nwarnings %v", st, c.studies, dr, c.drawings, r.Warnings)
			}
		})
	}
}
