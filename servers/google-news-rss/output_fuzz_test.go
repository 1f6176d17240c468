package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// FuzzPreviewOutput: whatever Google News answers a search feed with,
// preview_search_feed either fails with an envelope error or answers something
// that conforms to its published output schema (production validates no
// result per call). The seed is the fake's real feed.
func FuzzPreviewOutput(f *testing.F) {
	fk := fake.New(fake.Options{})
	base, stop := fk.Start()
	f.Cleanup(stop)
	proxy := servetest.NewSwapProxy(f, base, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/rss/search") },
		"application/xml; charset=utf-8")
	f.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewProduction(f, app(&tools.Config{}), "--base-url", proxy.URL)
	var n atomic.Int64
	// A new query each time: a cached preview would not read the body.
	call := func(t testing.TB) *mcp.CallToolResult {
		return servetest.CallClient(t, c, "preview_search_feed", map[string]any{"q": fmt.Sprintf("shipping %d", n.Add(1))})
	}
	def, real := servetest.ToolDef(f, c, "preview_search_feed"), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}
