// Command ktrdr is the MCP server for the KTRDR trading-research backend:
// operations, data loading, training, models and strategies.
package main

import (
	"context"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/apps"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "ktrdr", Version: version, DefaultPort: 8704, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Commands:     map[string]serve.Command{"drift-probe": drift.Command("ktrdr", tools.DriftSetup)},
		Register: func(ctx context.Context, r *serve.Registry) error {
			if err := cfg.Register(ctx, r); err != nil {
				return err
			}
			return mcpapps.Install(r.Server, apps.Config())
		},
	}
}
