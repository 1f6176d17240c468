package apps_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/apps"
)

const page = "<!doctype html><html><head><title>v</title></head><body>v</body></html>"

func newServer(t *testing.T) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("demo", "1", server.WithToolCapabilities(true), server.WithResourceCapabilities(true, true))
	for _, name := range []string{"show", "plain", "place_order"} {
		s.AddTool(mcp.NewTool(name, mcp.WithDescription(name)), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructured(map[string]any{"n": 1}, "one"), nil
		})
	}
	err := apps.Install(s, apps.Config{
		Views:     []apps.View{{URI: "ui://demo/view.html", Name: "view", Description: "d", HTML: page, Tools: []string{"show"}}},
		ModelOnly: []string{"place_order"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eras: the legacy handshake (capabilities once, on the session) and the
// 2026-07-28 core (capabilities in every request's _meta), each over
// streamable HTTP so every message crosses the wire as JSON.
var eras = []struct{ name, version string }{
	{"legacy-2025-11-25", mcp.LATEST_LEGACY_PROTOCOL_VERSION},
	{"modern-2026-07-28", mcp.LATEST_PROTOCOL_VERSION},
}

func connect(t *testing.T, s *server.MCPServer, version string, declare bool) (*client.Client, mcp.InitializeResult) {
	t.Helper()
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(hs.Close)
	tr, err := transport.NewStreamableHTTP(hs.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	opts := []client.ClientOption{client.WithProtocolVersion(version)}
	c := client.NewClient(tr, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "apps-test", Version: "1"}
	if declare {
		init.Params.Capabilities = apps.ClientCapabilities()
	}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c, *res
}

func listJSON(t *testing.T, c *client.Client) map[string]map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		out[tool.Name] = m
	}
	return out
}

func TestLinksOnlyForDeclaringClients(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			s := newServer(t)
			plainC, initRes := connect(t, s, era.version, false)
			if _, ok := initRes.Capabilities.Extensions[apps.Extension]; !ok {
				t.Errorf("server capabilities lack %s: %+v", apps.Extension, initRes.Capabilities.Extensions)
			}
			for name, tool := range listJSON(t, plainC) {
				if _, has := tool["_meta"]; has {
					t.Errorf("client without the extension sees _meta on %s: %v", name, tool["_meta"])
				}
			}
			appC, _ := connect(t, s, era.version, true)
			tools := listJSON(t, appC)
			meta, _ := tools["show"]["_meta"].(map[string]any)
			ui, _ := meta["ui"].(map[string]any)
			if ui["resourceUri"] != "ui://demo/view.html" || meta["ui/resourceUri"] != "ui://demo/view.html" {
				t.Errorf("show _meta = %v, want both resourceUri keys", meta)
			}
			if _, has := tools["plain"]["_meta"]; has {
				t.Errorf("unlinked tool got _meta: %v", tools["plain"]["_meta"])
			}
			om, _ := tools["place_order"]["_meta"].(map[string]any)
			oui, _ := om["ui"].(map[string]any)
			if vis, _ := oui["visibility"].([]any); len(vis) != 1 || vis[0] != "model" {
				t.Errorf("place_order _meta = %v, want ui.visibility [model]", om)
			}
			// The link must not leak to the plain client after the app client listed.
			if _, has := listJSON(t, plainC)["show"]["_meta"]; has {
				t.Error("link leaked to the client without the extension")
			}
		})
	}
}

func TestLinkCost(t *testing.T) {
	s := newServer(t)
	plainC, _ := connect(t, s, mcp.LATEST_LEGACY_PROTOCOL_VERSION, false)
	appC, _ := connect(t, s, mcp.LATEST_LEGACY_PROTOCOL_VERSION, true)
	ui, _ := json.Marshal(listJSON(t, appC)["show"]["_meta"].(map[string]any)["ui"])
	if len(ui) > 80 {
		t.Errorf("_meta.ui link is %d bytes, budget 80: %s", len(ui), ui)
	}
	a, _ := json.Marshal(listJSON(t, appC)["show"])
	b, _ := json.Marshal(listJSON(t, plainC)["show"])
	// Whole growth: _meta wrapper + ui object + flat key. URIs are ≤ 40 bytes.
	if grow := len(a) - len(b); grow > 54+2*len("ui://demo/view.html") {
		t.Errorf("tools/list entry grew by %d bytes", grow)
	}
}

func TestResourceRead(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			c, _ := connect(t, newServer(t), era.version, false)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
			if err != nil || len(list.Resources) != 1 || list.Resources[0].MIMEType != apps.MIMEType {
				t.Fatalf("resources/list = %+v, %v", list, err)
			}
			var req mcp.ReadResourceRequest
			req.Params.URI = "ui://demo/view.html"
			res, err := c.ReadResource(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			tc, ok := res.Contents[0].(mcp.TextResourceContents)
			if !ok || tc.MIMEType != apps.MIMEType || tc.Text != page {
				t.Fatalf("resources/read = %+v", res.Contents)
			}
			b, _ := json.Marshal(tc.Meta)
			if !strings.Contains(string(b), `"connectDomains":[]`) || !strings.Contains(string(b), `"prefersBorder":true`) {
				t.Errorf("content _meta = %s", b)
			}
		})
	}
}

func TestResultsUnchanged(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			s := newServer(t)
			var got []string
			for _, declare := range []bool{false, true} {
				c, _ := connect(t, s, era.version, declare)
				var req mcp.CallToolRequest
				req.Params.Name = "show"
				res, err := c.CallTool(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(res)
				got = append(got, string(b))
			}
			if got[0] != got[1] {
				t.Errorf("result differs with the extension:\n%s\n%s", got[0], got[1])
			}
		})
	}
}

func TestInstallRejects(t *testing.T) {
	cases := map[string]apps.Config{
		"bad uri":               {Views: []apps.View{{URI: "http://x/v.html", Name: "v", HTML: page, Tools: []string{"a"}}}},
		"not html":              {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: "<div>", Tools: []string{"a"}}}},
		"html later":            {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: "<p>" + page, Tools: []string{"a"}}}},
		"empty":                 {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: " \n", Tools: []string{"a"}}}},
		"no tools":              {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: page}}},
		"double link":           {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: page, Tools: []string{"a"}}, {URI: "ui://x/w.html", Name: "w", HTML: page, Tools: []string{"a"}}}},
		"linked and model-only": {Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: page, Tools: []string{"a"}}}, ModelOnly: []string{"a"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if err := apps.Install(server.NewMCPServer("x", "1"), c); err == nil {
				t.Error("want an error")
			}
		})
	}
	// The doctype is matched without regard to case or leading space.
	ok := apps.Config{Views: []apps.View{{URI: "ui://x/v.html", Name: "v", HTML: "\n  <!DOCTYPE HTML>" + page[15:], Tools: []string{"a"}}}}
	if err := apps.Install(server.NewMCPServer("x", "1"), ok); err != nil {
		t.Errorf("upper-case doctype refused: %v", err)
	}
}
