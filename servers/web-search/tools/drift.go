package tools

import (
	"context"
	"errors"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
)

// DriftSetup builds the client from the environment, as the server does,
// for the drift-probe command (`mcpfleet doctor --live web-search`).
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	key := env.Or(openai.EnvAPIKey, "")
	if key == "" {
		return nil, nil, errors.New(openai.EnvAPIKey + " is not set: the probe asks OpenAI with the operator's key")
	}
	cl := openai.New(openai.Config{APIKey: key, BaseURL: env.Or(openai.EnvBaseURL, openai.DefaultBaseURL),
		Model: env.Or(openai.EnvModel, openai.DefaultModel), Effort: env.Or(openai.EnvEffort, openai.DefaultEffort),
		ContextSize: env.Or(openai.EnvContextSize, openai.DefaultContextSize), Timeout: 30 * time.Second})
	return cl.Probes(time.Now()), openai.Shapes, nil
}

// maxDriftShown bounds the drift signals a capabilities answer carries.
const maxDriftShown = 5
