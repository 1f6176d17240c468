package main

import (
	"os"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
)

// TestMain lets the test binary serve as the Python sandbox helper, as the
// real binary does.
func TestMain(m *testing.M) {
	if sandbox.MaybeChild() {
		return
	}
	os.Exit(m.Run())
}
