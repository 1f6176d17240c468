// Package apps holds shoonya's MCP App views, built by make apps from src/
// (see docs/apps.md) and embedded in the binary.
package apps

import (
	_ "embed"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
)

// View URIs.
const (
	CandlesURI   = "ui://shoonya/candles.html"
	PortfolioURI = "ui://shoonya/portfolio.html"
)

var (
	//go:embed candles.html
	candlesHTML string
	//go:embed portfolio.html
	portfolioHTML string
)

// Config links the read tools to the views and makes the order tools
// model-only: a view is read-only and a host must refuse its call to them.
func Config() mcpapps.Config {
	return mcpapps.Config{
		Views: []mcpapps.View{
			{URI: CandlesURI, Name: "shoonya-candles", HTML: candlesHTML, Tools: []string{"get_time_price_series"},
				Description: "Candles and volume of a get_time_price_series result."},
			{URI: PortfolioURI, Name: "shoonya-portfolio", HTML: portfolioHTML, Tools: []string{"get_positions", "get_order_book"},
				Description: "Positions with P&L, or the order book with statuses and reject reasons (read-only)."},
		},
		ModelOnly: []string{"place_order", "modify_order", "cancel_order"},
	}
}
