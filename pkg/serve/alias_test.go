package serve_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// aliasApp is testApp plus unlisted names: Echo_Back (with "text" for msg),
// MCP-01 (as is), Write_It (of a write tool) and echo_twin (of a tool that
// does not exist).
func aliasApp() serve.App {
	app := testApp()
	reg := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error {
		if err := reg(ctx, r); err != nil {
			return err
		}
		r.AddAliases(
			serve.Alias{Name: "Echo_Back", Target: "echo", Args: func(a map[string]any) map[string]any {
				if v, ok := a["text"]; ok {
					delete(a, "text")
					a["msg"] = v
				}
				return a
			}},
			serve.Alias{Name: "MCP-01", Target: "echo"},
			serve.Alias{Name: "Write_It", Target: "write"},
			serve.Alias{Name: "echo_twin", Target: "nothing"},
			serve.Alias{Name: "write", Target: "echo"}, // never shadows a served tool
		)
		return nil
	}
	return app
}

// TestAliasesAreCallableNotListed: an alias reaches its tool (arguments
// rewritten), tools/list does not grow, an alias of a filtered-out tool is
// filtered out with it, and the HTTP unknown-tool gate lets aliases through.
func TestAliasesAreCallableNotListed(t *testing.T) {
	c := servetest.New(t, aliasApp())
	var names []string
	for _, tl := range c.Tools(t) {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "echo,write" {
		t.Errorf("tools/list = %v; aliases must not be listed", names)
	}
	if out := servetest.Decode[echoOut](t, c.Call(t, "Echo_Back", map[string]any{"text": "hi"})); out.Msg != "hi" {
		t.Errorf("Echo_Back = %+v", out)
	}
	if out := servetest.Decode[echoOut](t, c.Call(t, "MCP-01", map[string]any{"msg": "yo"})); out.Msg != "yo" {
		t.Errorf("MCP-01 = %+v", out)
	}
	if out := servetest.Decode[echoOut](t, c.Call(t, "write", map[string]any{"msg": "x"})); out.Msg != "written" {
		t.Errorf("write was shadowed by an alias: %+v", out)
	}
	if _, err := c.CallCtx(context.Background(), "echo_twin", map[string]any{"msg": "x"}); err == nil {
		t.Error("an alias of a tool that is not served answered")
	}
	ro := servetest.New(t, aliasApp(), "--read-only")
	if _, err := ro.CallCtx(context.Background(), "Write_It", map[string]any{"msg": "x"}); err == nil {
		t.Error("--read-only: Write_It reached the dropped write tool")
	}
	if res := ro.Call(t, "Echo_Back", map[string]any{"text": "ro"}); res.IsError {
		t.Errorf("--read-only: Echo_Back = %s", servetest.Text(res))
	}

	o, err := serve.ParseOptions(aliasApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, "error")
	b, err := serve.Build(context.Background(), aliasApp(), o, log)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.HTTPHandler(b)
	session := ""
	post := func(body string) string {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if s := rec.Header().Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		return rec.Body.String()
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	got := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Echo_Back","arguments":{"text":"over http"}}}`)
	if !strings.Contains(got, "over http") || strings.Contains(got, "unknown tool") {
		t.Errorf("HTTP Echo_Back: %s", got)
	}
	if got := post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Echo_Bak","arguments":{}}}`); !strings.Contains(got, "unknown tool") {
		t.Errorf("HTTP unknown tool: %s", got)
	}
}
