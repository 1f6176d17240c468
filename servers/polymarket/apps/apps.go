// Package apps holds polymarket's MCP App view, built by make apps from src/
// (see docs/apps.md) and embedded in the binary.
package apps

import (
	_ "embed"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
)

// MarketURI is the market view: price lines, cumulative depth, key numbers.
const MarketURI = "ui://polymarket/market.html"

//go:embed market.html
var marketHTML string

// Config links get_price_history, get_order_books and get_market to the
// market view. polymarket is read-only: no tool needs model-only visibility.
func Config() mcpapps.Config {
	return mcpapps.Config{Views: []mcpapps.View{{
		URI: MarketURI, Name: "polymarket-market",
		Description: "Chart of a Polymarket tool result: price history, order-book depth with spread and mid, or a market's key numbers.",
		HTML:        marketHTML,
		Tools:       []string{"get_price_history", "get_order_books", "get_market"},
	}}}
}
