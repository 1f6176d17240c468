package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// FuzzInitializeChartOutput: production validates no result per call (see
// serve.Build), so conformance is proven here: every success answer for any
// birth data conforms to initialize_chart's published output schema, as the
// client receives it.
func FuzzInitializeChartOutput(f *testing.F) {
	c := servetest.NewProduction(f, app(&tools.Config{}), "--rules-file", filepath.Join(f.TempDir(), "cfg", "ziwei-rules.json"))
	def := servetest.ToolDef(f, c, "initialize_chart")
	for _, s := range []struct {
		y, m, d, hour int
		male, lunar   bool
	}{{1990, 5, 17, 6, true, false}, {2017, 5, 29, 0, false, true}, {1900, 1, 31, 12, false, false}, {2100, 12, 31, 11, true, false}, {1984, 2, 2, 3, false, true}} {
		f.Add(s.y, s.m, s.d, s.hour, s.male, s.lunar)
	}
	f.Fuzz(func(t *testing.T, y, m, d, hour int, male, lunar bool) {
		g := "女"
		if male {
			g = "男"
		}
		args := map[string]any{"birthDate": fmt.Sprintf("%04d-%02d-%02d", 1900+abs(y)%201, 1+abs(m)%12, 1+abs(d)%31),
			"birthTimeIndex": abs(hour) % 13, "gender": g, "isLunar": lunar}
		res := servetest.CallClient(t, c, "initialize_chart", args)
		if res.IsError {
			return // impossible dates answer invalid_argument; error bodies are not the output schema's
		}
		if err := servetest.CheckOutput(def, res); err != nil {
			t.Fatalf("%v: answer breaks the published output schema: %v", args, err)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}
