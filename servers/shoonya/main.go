// Command shoonya is the MCP server for the Shoonya (Finvasia) Noren broker.
package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

var version = "dev"

func main() {
	serve.Main(serve.App{
		Name: "shoonya", Version: version, DefaultPort: 8702, Env: envVars,
		Instructions: tools.Instructions,
		Register:     tools.Register,
	})
}
