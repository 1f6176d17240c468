package tools

import (
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
	if len(all) != 3 {
		t.Fatalf("%d tools, want 3", len(all))
	}
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
}

func TestHints(t *testing.T) {
	want := map[string][4]bool{ // readOnly, destructive, idempotent, openWorld
		"search_web":              {true, false, false, true},
		"get_search_capabilities": {true, false, true, false},
		"fetch_page":              {true, false, false, true},
	}
	for _, tl := range All(testService()) {
		a := tl.Tool.Annotations
		got := [4]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint}
		if got != want[tl.Name()] {
			t.Errorf("%s hints %v, want %v", tl.Name(), got, want[tl.Name()])
		}
	}
}
