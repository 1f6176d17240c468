// Package apps holds ziwei's MCP App view, the 4×4 palace board, built by
// make apps from src/ (see docs/apps.md) and embedded in the binary.
package apps

import (
	_ "embed"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// ChartURI is the chart board view.
const ChartURI = "ui://ziwei/chart.html"

//go:embed chart.html
var chartHTML string

// Config links the basics and period tools to the board. ziwei places no
// orders: no tool needs model-only visibility.
func Config() mcpapps.Config {
	return mcpapps.Config{Views: []mcpapps.View{{
		URI: ChartURI, Name: "ziwei-chart",
		Description: "The 4×4 Zi Wei Dou Shu board: twelve palaces with stars, brightness, natal 四化 and decades around the basics; click a palace for its 三方四正 and flying 四化; period tools add their overlay.",
		HTML:        chartHTML,
		Tools:       tools.ViewTools,
	}}}
}
