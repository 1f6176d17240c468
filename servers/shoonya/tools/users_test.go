package tools_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestStateIsPerUserNotPerSession: over HTTP with bearer tokens, a login
// belongs to the token's user: another MCP client of the same user (a new
// stateless 2026-07-28 connection, or a 2025-11-25 session) is logged in, a
// different user is not.
func TestStateIsPerUserNotPerSession(t *testing.T) {
	const alice, bob = "alice-token-0123456789", "bob-token-0123456789ab"
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice="+alice+",bob="+bob)
	e := newEnv(t, noren.Legacy, envOpt{})
	bearer := func(tok string) transport.StreamableHTTPCOption {
		return transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok})
	}
	call := func(tok, version, tool string) *mcp.CallToolResult {
		c := httpClient(t, e.conn.Built, version, bearer(tok))
		var req mcp.CallToolRequest
		req.Params.Name = tool
		req.Params.Arguments = map[string]any{}
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res
	}
	if res := call(alice, mcp.LATEST_PROTOCOL_VERSION, "connect_shoonya_broker"); res.IsError {
		t.Fatalf("connect: %s", servetest.Text(res))
	}
	for _, v := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.ProtocolVersion20251125} {
		if res := call(alice, v, "get_limits"); res.IsError {
			t.Fatalf("alice on a new %s connection: %s", v, servetest.Text(res))
		}
	}
	if body := servetest.ErrorBody(t, call(bob, mcp.LATEST_PROTOCOL_VERSION, "get_limits")); body.Code != "unauthenticated" {
		t.Fatalf("bob sees alice's login: %+v", body)
	}
}

// TestOAuthCallback: with SHOONYA_OAUTH_REDIRECT_URL the browser's redirect
// lands on this server's loopback listener, which finishes the login; the
// code never passes through the model.
func TestOAuthCallback(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_OAUTH_REDIRECT_URL": "http://127.0.0.1:0/shoonya/callback"}})
	out := servetest.Decode[tools.ConnectOut](t, e.call("connect_shoonya_broker", nil))
	if out.Status != "authorization_required" || !strings.Contains(out.AuthorizeURL, "state=") || !strings.Contains(out.AuthorizeURL, "redirect_uri=") {
		t.Fatalf("%+v", out)
	}
	resp, err := http.Get(out.AuthorizeURL + "&auto=1") // the fake's stand-in for the user logging in
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Connected") {
		t.Fatalf("callback page %d: %s", resp.StatusCode, body)
	}
	if out := servetest.Decode[tools.ConnectOut](t, e.call("connect_shoonya_broker", nil)); out.Status != "connected" {
		t.Fatalf("after callback: %+v", out)
	}
	servetest.Decode[tools.LimitsOut](t, e.call("get_limits", nil))
	// A replayed callback is refused.
	resp, err = http.Get(resp.Request.URL.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("replayed state accepted: %d", resp.StatusCode)
	}
}
