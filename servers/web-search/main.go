// Command web-search is the MCP server for cited web search through the
// OpenAI Responses API's web_search tool, within a per-user search budget.
package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "web-search", Version: version, DefaultPort: 8707, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Register:     cfg.Register,
		Commands:     map[string]serve.Command{"drift-probe": drift.Command("web-search", tools.DriftSetup)},
	}
}
