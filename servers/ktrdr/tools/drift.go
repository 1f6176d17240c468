package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// DriftSetup builds the client from the server's environment for the
// drift-probe command (`mcpfleet doctor --live ktrdr`).
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	cl, err := client.New(client.Config{APIURL: env.Or("KTRDR_API_URL", client.DefaultAPIURL)})
	if err != nil {
		return nil, nil, err
	}
	return cl.Probes(), client.Shapes, nil
}
