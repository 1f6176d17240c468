package tools

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
	"github.com/mcpfleet/mcpfleet/servers/web-search/quota"
)

func testService() *Service {
	return NewService(openai.New(openai.Config{}), quota.New(20, 10*time.Minute, quota.Options{}), ServiceOptions{})
}

func TestToolsLintAndSnapshots(t *testing.T) {
	all := All(testService())
	if len(all) != 2 {
		t.Fatalf("%d tools, want 2", len(all))
	}
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

func TestHints(t *testing.T) {
	want := map[string][4]bool{ // readOnly, destructive, idempotent, openWorld
		"search_web":              {true, false, false, true},
		"get_search_capabilities": {true, false, true, false},
	}
	for _, tl := range All(testService()) {
		a := tl.Tool.Annotations
		got := [4]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint}
		if got != want[tl.Name()] {
			t.Errorf("%s hints %v, want %v", tl.Name(), got, want[tl.Name()])
		}
	}
}

// TestToolTextBudget: name+description+input schema ≤ 700 B per tool on
// average (the fleet's budget). The whole tools/list entry's budget is 1.2 KB
// per tool on average; two output schemas (search_web's citations, the
// capabilities) put this server at ~1.5 KB, guarded here so it does not grow.
func TestToolTextBudget(t *testing.T) {
	all := All(testService())
	core, whole := 0, 0
	for _, tl := range all {
		in, _ := json.Marshal(tl.Tool.InputSchema)
		if tl.Tool.RawInputSchema != nil {
			in = tl.Tool.RawInputSchema
		}
		entry, _ := json.Marshal(tl.Tool)
		core += len(tl.Name()) + len(tl.Tool.Description) + len(in)
		whole += len(entry)
		t.Logf("%s: core %d B, entry %d B", tl.Name(), len(tl.Name())+len(tl.Tool.Description)+len(in), len(entry))
	}
	if avg := core / len(all); avg > 700 {
		t.Errorf("name+description+input schema average %d B > 700", avg)
	}
	if avg := whole / len(all); avg > 1600 {
		t.Errorf("tools/list entry average %d B > 1600", avg)
	}
}
