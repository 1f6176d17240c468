package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// violations derives, from one tool's input schema, argument sets that break
// each kind of keyword the schema uses, with the sentence each must produce.
func violations(schema json.RawMessage) []struct {
	kind string
	args map[string]any
	want string
} {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	type v = struct {
		kind string
		args map[string]any
		want string
	}
	var out []v
	for _, r := range s.Required {
		out = append(out, v{"required", map[string]any{}, r + " is required"})
		break
	}
	out = append(out, v{"additionalProperties", map[string]any{"zz_not_an_argument": 1}, "unknown argument zz_not_an_argument"})
	for name, p := range s.Properties {
		switch {
		case p["enum"] != nil:
			out = append(out, v{"enum", map[string]any{name: "zz-not-a-value"}, name + `: "zz-not-a-value" is not one of`})
		case p["maximum"] != nil:
			max, _ := p["maximum"].(float64)
			out = append(out, v{"maximum", map[string]any{name: max + 1}, name + ": "})
		case p["minimum"] != nil:
			min, _ := p["minimum"].(float64)
			out = append(out, v{"minimum", map[string]any{name: min - 1}, name + ": "})
		case p["pattern"] != nil:
			out = append(out, v{"pattern", map[string]any{name: "\x01"}, name + ": "})
		case p["type"] == "string":
			out = append(out, v{"type", map[string]any{name: 12}, name + ": expected string, got number"})
		}
	}
	return out
}

// TestSchemaErrorsAreSentencesOnEveryServer: on every server, over stdio, each
// kind of schema keyword its tools use fails as an invalid_argument envelope
// with details.fields and a plain sentence — never a Go struct dump.
func TestSchemaErrorsAreSentencesOnEveryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			env := serverEnv(t, bins, s.Name)
			tr := transport.NewStdioWithOptions(filepath.Join(bins, s.Name), append(env, isolatedEnv()...), nil)
			c := client.NewClient(tr)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := servetest.Initialize(ctx, c, ""); err != nil {
				t.Fatal(err)
			}
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]int{}
			for _, tool := range list.Tools {
				schema := tool.RawInputSchema
				if schema == nil {
					schema, _ = json.Marshal(tool.InputSchema)
				}
				for _, v := range violations(schema) {
					var req mcp.CallToolRequest
					req.Params.Name = tool.Name
					req.Params.Arguments = v.args
					res, err := c.CallTool(ctx, req)
					if err != nil {
						t.Fatalf("%s %s: protocol error %v", tool.Name, v.kind, err)
					}
					body := servetest.ErrorBody(t, res)
					text := servetest.Text(res)
					fields, _ := body.Details["fields"].([]any)
					if body.Code != "invalid_argument" || len(fields) == 0 || !strings.Contains(body.Message, v.want) ||
						strings.Contains(text, "&{") || strings.Contains(text, `\u0026`) {
						t.Errorf("%s %s %v: got %s %q fields %v; want invalid_argument with %q", tool.Name, v.kind, v.args, body.Code, body.Message, fields, v.want)
					}
					kinds[v.kind]++
				}
			}
			t.Logf("%s: %v", s.Name, kinds)
			if kinds["additionalProperties"] == 0 {
				t.Fatal("no violation was tried")
			}
		})
	}
}
