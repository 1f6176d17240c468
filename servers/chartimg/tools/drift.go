package tools

import (
	"context"
	"errors"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
)

// DriftSetup builds the client from the server's environment for the
// drift-probe command (`mcpfleet doctor --live chartimg`).
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	key := env.Or(client.EnvAPIKey, "")
	if key == "" {
		return nil, nil, errors.New(client.EnvAPIKey + " is not set: the probe asks chart-img with the operator's key")
	}
	cl := client.New(client.Config{APIURL: env.Or(client.EnvAPIURL, client.DefaultAPIURL),
		DocsURL: env.Or(client.EnvDocsURL, client.DefaultDocsURL), APIKey: key})
	return cl.Probes(), client.Shapes, nil
}
