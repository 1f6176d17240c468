package tools_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestBudget keeps shoonya's tools/list within the fleet's token budget and
// prints the per-tool table (go test -v -run Budget).
func TestBudget(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	servetest.Budget(t, "shoonya", e.conn.Built.Registry.Tools())
}
