// Command shoonya is the MCP server for the Shoonya (Finvasia) Noren broker.
package main

import (
	"context"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/apps"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

var version = "dev"

func main() { serve.Main(app()) }

func app() serve.App {
	return serve.App{
		Name: "shoonya", Version: version, DefaultPort: 8702, Env: envVars,
		Instructions: tools.Instructions,
		Register: func(ctx context.Context, r *serve.Registry) error {
			if err := tools.Register(ctx, r); err != nil {
				return err
			}
			// MCP Apps views: links only for clients that declare the extension.
			return mcpapps.Install(r.Server, apps.Config())
		},
		Commands: map[string]serve.Command{"drift-probe": drift.Command("shoonya", tools.DriftSetup), "trading": tools.TradingCommand},
	}
}
