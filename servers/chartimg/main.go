// Command chartimg is the MCP server for chart-img.com: docs, exchanges,
// symbols, natural language → chart config, validation, and the chart image.
package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "chartimg", Version: version, DefaultPort: 8703, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Commands:     map[string]serve.Command{"drift-probe": drift.Command("chartimg", tools.DriftSetup)},
		Register:     cfg.Register,
	}
}
