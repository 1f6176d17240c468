package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// DriftSetup builds the client from the same environment as the server,
// for the drift-probe command (`mcpfleet doctor --live polymarket`). Every
// Polymarket route it probes is public: no key is needed.
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	cl := client.New(client.Config{GammaURL: envOr(client.EnvGammaURL, client.DefaultGammaURL),
		ClobURL: envOr(client.EnvClobURL, client.DefaultClobURL), DataURL: envOr(client.EnvDataURL, client.DefaultDataURL),
		BTCURL: envOr(client.EnvBTCURL, client.DefaultBTCURL), BTCFallbackURL: envOr(client.EnvBTCFallbackURL, client.DefaultBTCFallbackURL)})
	return cl.Probes(), client.Shapes, nil
}
