package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// TestTableColumns: each table tool's schema names the columns Tabulate writes.
func TestTableColumns(t *testing.T) {
	want := map[string][]string{
		"get_top_holders":         toolkit.Columns[HolderRow](),
		"get_builder_leaderboard": toolkit.Columns[BuilderRow](),
	}
	for _, tl := range all() {
		if cols, ok := want[tl.Name()]; ok {
			servetest.TableColumns(t, tl.Tool, cols)
			delete(want, tl.Name())
		}
	}
	if len(want) > 0 {
		t.Errorf("tools not found: %v", want)
	}
}
