package tools

import (
	"context"
	"os"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
)

// DriftSetup builds the client from the server's environment for the
// drift-probe command (`mcpfleet doctor --live google-news-rss`).
func DriftSetup(context.Context) ([]drift.Probe, []drift.Shape, error) {
	base := strings.TrimSpace(os.Getenv(feed.EnvBaseURL))
	if base == "" {
		base = feed.DefaultBaseURL
	}
	return feed.New(feed.Config{BaseURL: base}).Probes(), feed.Shapes, nil
}
