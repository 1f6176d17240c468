package tools

import (
	"encoding/json"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func TestToolsLintAndSnapshots(t *testing.T) {
	all := All(&Service{})
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

// Every tool is read-only (issue 15); only the two that reach Google are open-world.
func TestHints(t *testing.T) {
	remote := map[string]bool{"preview_search_feed": true, "fetch_search_feed": true}
	all := All(&Service{})
	if len(all) != 5 {
		t.Fatalf("%d tools, want 5", len(all))
	}
	for _, tl := range all {
		a := tl.Tool.Annotations
		if !*a.ReadOnlyHint || *a.DestructiveHint || *a.OpenWorldHint != remote[tl.Name()] {
			t.Errorf("%s: hints %+v", tl.Name(), a)
		}
	}
}

// The tool text budget: name+description+input schema ≤ 700 B and the whole
// tools/list entry ≤ 1.2 KB per tool on average.
func TestToolTextBudget(t *testing.T) {
	all := All(&Service{})
	var small, whole int
	for _, tl := range all {
		in, _ := json.Marshal(tl.Tool.InputSchema)
		if tl.Tool.RawInputSchema != nil {
			in = tl.Tool.RawInputSchema
		}
		entry, _ := json.Marshal(tl.Tool)
		small += len(tl.Tool.Name) + len(tl.Tool.Description) + len(in)
		whole += len(entry)
		t.Logf("%s: name+description+input %d B, entry %d B", tl.Name(), len(tl.Tool.Name)+len(tl.Tool.Description)+len(in), len(entry))
	}
	if avg := small / len(all); avg > 700 {
		t.Errorf("name+description+input schema average %d B > 700", avg)
	}
	if avg := whole / len(all); avg > 1200 {
		t.Errorf("tools/list entry average %d B > 1200", avg)
	}
}
