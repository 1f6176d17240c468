package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// TestHelpListsEveryVariable: every environment variable this binary reads
// is listed by --help, and --help lists none it does not read.
func TestHelpListsEveryVariable(t *testing.T) {
	servetest.EnvInHelp(t, app(&tools.Config{}), nil)
}
