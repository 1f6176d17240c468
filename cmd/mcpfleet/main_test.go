package main

import (
	"os"
	"testing"
)

// TestMain removes the fleet the e2e tests built (~190 MB a run): left in the
// temporary directory, a few dozen runs fill a CI disk.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
