package pytool_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
)

// TestPerBearerUserOverHTTP: the limit follows the bearer token's user over
// streamable HTTP (the 2026-07-28 protocol has no session to key it on).
func TestPerBearerUserOverHTTP(t *testing.T) {
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice=alice-token-0123456789,bob=bob-token-0123456789ab")
	cfg := testConfig()
	cfg.RunsPerHour = 2
	c := connect(t, cfg)
	alice := c.HTTPClient(t, "", map[string]string{"Authorization": "Bearer alice-token-0123456789"})
	alice2 := c.HTTPClient(t, "", map[string]string{"Authorization": "Bearer alice-token-0123456789"})
	bob := c.HTTPClient(t, "", map[string]string{"Authorization": "Bearer bob-token-0123456789ab"})
	call := func(cl interface {
		CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
	}) *mcp.CallToolResult {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var req mcp.CallToolRequest
		req.Params.Name = pytool.Name
		req.Params.Arguments = map[string]any{"code": "print(1)"}
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for i, cl := range []interface {
		CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
	}{alice, alice2} { // two connections, one user
		if res := call(cl); res.IsError {
			t.Fatalf("alice run %d: %s", i+1, servetest.Text(res))
		}
	}
	if b := servetest.ErrorBody(t, call(alice2)); b.Code != envelope.RateLimited {
		t.Fatalf("alice's 3rd run: %+v", b)
	}
	if res := call(bob); res.IsError {
		t.Fatalf("bob: %s", servetest.Text(res))
	}
}
