package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func TestToolsLintAndSnapshots(t *testing.T) {
	all := All(&Service{})
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

// Every tool is read-only (the server only reads feeds); only the two that reach Google are open-world.
func TestHints(t *testing.T) {
	remote := map[string]bool{"preview_search_feed": true, "fetch_search_feed": true, "read_article": true}
	all := All(&Service{})
	if len(all) != 6 {
		t.Fatalf("%d tools, want 6", len(all))
	}
	for _, tl := range all {
		a := tl.Tool.Annotations
		if !*a.ReadOnlyHint || *a.DestructiveHint || *a.OpenWorldHint != remote[tl.Name()] {
			t.Errorf("%s: hints %+v", tl.Name(), a)
		}
	}
}
