// Command polymarket is the MCP server for read-only Polymarket data: markets,
// events, search, order books, prices, price history, wallet positions and
// activity, holders, comments, the builder leaderboard, a BTC spot price and
// the original's market finders, over the real Gamma, CLOB and Data APIs.
package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "polymarket", Version: version, DefaultPort: 8705,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Register:     cfg.Register,
	}
}
