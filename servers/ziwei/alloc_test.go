package main

import (
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestAllocsAtFloor: initialize_chart allocates at most 1.3× what a bare
// mcp-go server answering the very same bytes does (issue 20).
func TestAllocsAtFloor(t *testing.T) {
	c := servetest.NewProduction(t, newApp(), "--rules-file", filepath.Join(t.TempDir(), "cfg", "ziwei-rules.json"))
	servetest.GuardAllocs(t, c, "initialize_chart", birth1990)
}
