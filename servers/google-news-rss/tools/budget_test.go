package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestBudget keeps google-news-rss's tools/list within the fleet's token
// budget and prints the per-tool table (go test -v -run Budget).
func TestBudget(t *testing.T) { servetest.Budget(t, "google-news-rss", All(&Service{})) }
