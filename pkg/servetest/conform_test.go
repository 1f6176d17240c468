package servetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// recTB records Errorf instead of failing, to test that conformance fails tests.
type recTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestConformanceCatchesSchemaBreaks(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	answers := map[string]*mcp.CallToolResult{
		"good":         {RawStructuredContent: json.RawMessage(`{"n":1}`)},
		"good_value":   {StructuredContent: map[string]any{"n": 2}},
		"tool_error":   {IsError: true, StructuredContent: map[string]any{"code": "x"}},
		"bad_raw":      {RawStructuredContent: json.RawMessage(`{"n":"one"}`)},
		"bad_value":    {StructuredContent: map[string]any{}},
		"no_structure": {Content: []mcp.Content{mcp.NewTextContent("hi")}},
	}
	srv := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	for name, res := range answers {
		tool := mcp.NewTool(name)
		tool.RawOutputSchema = schema
		srv.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	}
	rec := &recTB{TB: t}
	srv.Use(conformance(rec, srv))
	c := inProcess(t, context.Background(), srv)
	for _, tc := range []struct {
		tool string
		bad  bool
	}{{"good", false}, {"good_value", false}, {"tool_error", false}, {"bad_raw", true}, {"bad_value", true}, {"no_structure", true}} {
		rec.errs = nil
		var req mcp.CallToolRequest
		req.Params.Name = tc.tool
		_, err := c.CallTool(context.Background(), req)
		if tc.bad != (err != nil) || tc.bad != (len(rec.errs) == 1) {
			t.Errorf("%s: bad=%v but call err=%v, test errors=%q", tc.tool, tc.bad, err, rec.errs)
		}
		if tc.bad && len(rec.errs) == 1 && !strings.Contains(rec.errs[0], tc.tool) {
			t.Errorf("%s: the failure must name the tool: %q", tc.tool, rec.errs[0])
		}
	}
}
