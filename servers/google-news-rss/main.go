// Command google-news-rss is the MCP server for English Google News search
// feeds: build and validate queries, preview a feed, and fetch it on a
// schedule, polling Google at most once per 3-hour window per query.
package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "google-news-rss", Version: version, DefaultPort: 8706, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Commands:     map[string]serve.Command{"drift-probe": drift.Command("google-news-rss", tools.DriftSetup)},
		Register:     cfg.Register,
	}
}
