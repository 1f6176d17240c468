package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
)

func TestToolsLintAndSnapshots(t *testing.T) {
	all := All(NewService(client.New(client.Config{}), nil))
	if len(all) != 7 {
		t.Fatalf("%d tools, want 7", len(all))
	}
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

func TestHints(t *testing.T) {
	want := map[string][4]bool{ // readOnly, destructive, idempotent, openWorld
		"fetch_chart_documentation": {true, false, true, true},
		"get_exchanges":             {true, false, true, true},
		"get_symbols":               {true, false, true, true},
		"construct_chart_config":    {true, false, true, false},
		"validate_chart_config":     {true, false, true, false},
		"generate_chart_image":      {false, false, true, true},
		"generate_layout_chart":     {false, false, true, true},
	}
	for _, tl := range All(NewService(client.New(client.Config{}), nil)) {
		a := tl.Tool.Annotations
		got := [4]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint}
		if got != want[tl.Name()] {
			t.Errorf("%s hints %v, want %v", tl.Name(), got, want[tl.Name()])
		}
	}
}
