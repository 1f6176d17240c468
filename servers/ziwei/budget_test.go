package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// TestToolsListBudget keeps tools/list within the fleet's token budget
// (go test -v -run Budget prints the per-tool table).
func TestBudget(t *testing.T) {
	servetest.Budget(t, "ziwei", tools.New("").All())
}
