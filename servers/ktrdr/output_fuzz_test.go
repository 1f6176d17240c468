package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// FuzzListOperationsOutput: whatever the backend answers GET /operations
// with, list_operations either fails with an envelope error or answers
// something that conforms to its published output schema (production
// validates no result per call). The seed is the fake's answer.
func FuzzListOperationsOutput(f *testing.F) {
	fk := fake.New(fake.Options{})
	base, stop := fk.Start()
	f.Cleanup(stop)
	host := strings.TrimSuffix(base, fake.APIPrefix)
	proxy := servetest.NewSwapProxy(f, host, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/operations") },
		"application/json")
	c := servetest.NewProduction(f, app(&tools.Config{Retries: -1}), "--api-url", proxy.URL+fake.APIPrefix)
	call := func(t testing.TB) *mcp.CallToolResult { return servetest.CallClient(t, c, "list_operations", nil) }
	def, real := servetest.ToolDef(f, c, "list_operations"), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}
