package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// TestAllocsAtFloor: get_search_capabilities allocates at most 1.3× what a
// bare mcp-go server answering the very same bytes does (issue 20).
func TestAllocsAtFloor(t *testing.T) {
	f := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewProduction(t, app(&tools.Config{}), "--base-url", base+"/v1")
	servetest.GuardAllocs(t, c, "get_search_capabilities", nil)
}
