package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// FuzzSearchWebOutput: whatever the Responses API answers, search_web either
// fails with an envelope error or answers something that conforms to its
// published output schema (production validates no result per call).
// The seed is the fake's real answer.
func FuzzSearchWebOutput(f *testing.F) {
	fk := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := fk.Start()
	f.Cleanup(stop)
	proxy := servetest.NewSwapProxy(f, base, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/responses") }, "application/json")
	f.Setenv("OPENAI_API_KEY", "sk-test")
	f.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewProduction(f, app(&tools.Config{MaxAttempts: 1, RetryWait: time.Millisecond}),
		"--base-url", proxy.URL+"/v1", "--limit", "1000000000")
	var n atomic.Int64
	// A new query each time: a cached answer would not read the body.
	call := func(t testing.TB) *mcp.CallToolResult {
		return servetest.CallClient(t, c, "search_web", map[string]any{"query": fmt.Sprintf("query %d", n.Add(1))})
	}
	def, real := servetest.ToolDef(f, c, "search_web"), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}
