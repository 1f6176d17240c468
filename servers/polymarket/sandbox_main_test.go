package main

import (
	"os"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestMain lets the test binary serve as the Python sandbox helper, as the
// real binary does.
func TestMain(m *testing.M) {
	if sandbox.MaybeChild() {
		return
	}
	servetest.ServeIfChild(func() serve.App { return app(&tools.Config{}) }) // a server process (limits_process_test.go)
	os.Exit(m.Run())
}
