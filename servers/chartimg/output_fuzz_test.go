package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// FuzzConstructChartConfigOutput: production validates no result per call
// (see serve.Build), so conformance is proven here: whatever the text, a
// success answer conforms to construct_chart_config's published output schema.
func FuzzConstructChartConfigOutput(f *testing.F) {
	c := servetest.NewProduction(f, app(&tools.Config{NoLimiter: true}))
	def := servetest.ToolDef(f, c, "construct_chart_config")
	for _, s := range []string{
		"Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark",
		"BTC 4h with RSI 21 and 20 EMA last week", "", "EURUSD 1m heikin ashi bollinger 20 2.5 macd 12 26 9",
		"AAPL weekly line log scale 5 years volume", "nonsense words 999 EMA EMA EMA",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res := servetest.CallClient(t, c, "construct_chart_config", map[string]any{"naturalLanguage": text})
		if res.IsError {
			return
		}
		if err := servetest.CheckOutput(def, res); err != nil {
			t.Fatalf("%q: answer breaks the published output schema: %v", text, err)
		}
	})
}
