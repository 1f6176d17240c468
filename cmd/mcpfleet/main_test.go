package main

import (
	"os"
	"testing"
)

// TestMain removes the fleet the e2e tests built (~190 MB a run): left in the
// temporary directory, a few dozen runs fill a CI disk. The servers it starts
// keep their state files in a directory of this run, never in the tester's
// home (where limits would carry over from one run to the next).
func TestMain(m *testing.M) {
	stateDir, err := os.MkdirTemp("", "mcpfleet-state-")
	if err == nil {
		os.Setenv("MCPFLEET_STATE_DIR", stateDir)
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	if stateDir != "" {
		os.RemoveAll(stateDir)
	}
	os.Exit(code)
}
