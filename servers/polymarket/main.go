// Command polymarket is the MCP server for read-only Polymarket data: markets,
// events, search, order books, prices, price history, wallet positions and
// activity, holders, comments, the builder leaderboard, a BTC spot price and
// the original's market finders, over the real Gamma, CLOB and Data APIs; and
// execute-python-code, an agent's analysis in a layered local sandbox.
package main

import (
	"context"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/apps"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

var version = "dev"

func main() {
	// The Python sandbox helper is this binary re-executed: become it first.
	if sandbox.MaybeChild() {
		return
	}
	serve.Main(app(&tools.Config{}))
}

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "polymarket", Version: version, DefaultPort: 8705, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Commands:     map[string]serve.Command{"drift-probe": drift.Command("polymarket", tools.DriftSetup)},
		Register: func(ctx context.Context, r *serve.Registry) error {
			if err := cfg.Register(ctx, r); err != nil {
				return err
			}
			if err := pytool.Register(ctx, r, pytool.Config{}); err != nil {
				return err
			}
			return mcpapps.Install(r.Server, apps.Config())
		},
	}
}
