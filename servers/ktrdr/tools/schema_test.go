package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func TestToolsLintAndSnapshots(t *testing.T) {
	all := All(nil, Options{})
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

// Read-only mode must hide exactly the state-changing tools.
func TestReadOnlyHints(t *testing.T) {
	writers := map[string]bool{}
	for _, n := range Writers {
		writers[n] = true
	}
	all := All(nil, Options{})
	if len(all) != ToolCount {
		t.Fatalf("%d tools, want %d", len(all), ToolCount)
	}
	for _, tl := range all {
		a := tl.Tool.Annotations
		if *a.ReadOnlyHint == writers[tl.Name()] {
			t.Errorf("%s: readOnlyHint %v", tl.Name(), *a.ReadOnlyHint)
		}
		if !*a.OpenWorldHint {
			t.Errorf("%s: talks to the backend, openWorldHint must be true", tl.Name())
		}
	}
	for _, tl := range all {
		if tl.Name() == "cancel_operation" && (!*tl.Tool.Annotations.DestructiveHint || !*tl.Tool.Annotations.IdempotentHint) {
			t.Error("cancel_operation: destructive and idempotent")
		}
	}
}
