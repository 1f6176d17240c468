package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
)

// DriftSetup builds the client from the server's environment for the
// drift-probe command (`mcpfleet doctor --live google-news-rss`).
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	base := env.Or(feed.EnvBaseURL, feed.DefaultBaseURL)
	return feed.New(feed.Config{BaseURL: base}).Probes(), feed.Shapes, nil
}
