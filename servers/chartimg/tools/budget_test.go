package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
)

// TestBudget keeps chartimg's tools/list within the fleet's token budget and
// prints the per-tool table (go test -v -run Budget).
func TestBudget(t *testing.T) {
	servetest.Budget(t, "chartimg", All(NewService(client.New(client.Config{}), nil)))
}
