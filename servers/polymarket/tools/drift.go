package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// DriftSetup builds the client from the same environment as the server,
// for the drift-probe command (`mcpfleet doctor --live polymarket`). Every
// Polymarket route it probes is public: no key is needed.
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	cl := client.New(client.Config{GammaURL: env.Or(client.EnvGammaURL, client.DefaultGammaURL),
		ClobURL: env.Or(client.EnvClobURL, client.DefaultClobURL), DataURL: env.Or(client.EnvDataURL, client.DefaultDataURL),
		BTCURL: env.Or(client.EnvBTCURL, client.DefaultBTCURL), BTCFallbackURL: env.Or(client.EnvBTCFallbackURL, client.DefaultBTCFallbackURL)})
	return cl.Probes(), client.Shapes, nil
}
