package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestBudget keeps polymarket's tools/list within the fleet's token budget and
// prints the per-tool table (go test -v -run Budget).
func TestBudget(t *testing.T) { servetest.Budget(t, "polymarket", all()) }
