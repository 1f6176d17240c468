package servetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// conformance is the test-time stand-in for mcp-go's per-call output
// validation, which production leaves off (see serve.Build): every success
// result of every MCP-level test is validated against the tool's published
// output schema, so each such test is also a conformance test. A violation
// fails the test and the call (a protocol error, as mcp-go's would).
func conformance(t testing.TB, srv *server.MCPServer) server.ToolHandlerMiddleware {
	schemas := &outputSchemas{byTool: map[string]*jsonschema.Schema{}}
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := next(ctx, req)
			if err != nil || res == nil || res.IsError {
				return res, err
			}
			// An input_required answer (elicitation, SEP-2322) is not the
			// tool's result yet: the retry that completes it is checked.
			if len(res.InputRequests) > 0 || (res.ResultType != "" && string(res.ResultType) != "complete") {
				return res, err
			}
			st := srv.GetTool(req.Params.Name)
			if st == nil {
				return res, err
			}
			if verr := schemas.check(st.Tool, res); verr != nil {
				t.Errorf("%s: result breaks the published output schema: %v", req.Params.Name, verr)
				return nil, fmt.Errorf("%s: output schema: %w", req.Params.Name, verr)
			}
			return res, nil
		}
	}
}

type outputSchemas struct {
	mu     sync.Mutex
	byTool map[string]*jsonschema.Schema
}

// CheckOutput validates one success result against tool's output schema (nil
// when the tool publishes none or the result carries no structured content).
// Per-server output tests (golden and fuzzed outputs) call it directly.
func CheckOutput(tool mcp.Tool, res *mcp.CallToolResult) error {
	return (&outputSchemas{byTool: map[string]*jsonschema.Schema{}}).check(tool, res)
}

func (o *outputSchemas) check(tool mcp.Tool, res *mcp.CallToolResult) error {
	raw := tool.RawOutputSchema
	if len(raw) == 0 {
		if tool.OutputSchema.Type == "" {
			return nil
		}
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			return err
		}
		raw = b
	}
	doc := res.RawStructuredContent
	if len(doc) == 0 {
		if res.StructuredContent == nil {
			return fmt.Errorf("the tool publishes an output schema but the result has no structured content")
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return fmt.Errorf("structured content does not encode: %w", err)
		}
		doc = b
	}
	sch, err := o.compiled(tool.Name, raw)
	if err != nil {
		return fmt.Errorf("output schema does not compile: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("structured content is not JSON: %w", err)
	}
	return sch.Validate(inst)
}

func (o *outputSchemas) compiled(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s, ok := o.byTool[name]; ok {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("urn:mcpfleet:output.json", doc); err != nil {
		return nil, err
	}
	s, err := c.Compile("urn:mcpfleet:output.json")
	if err != nil {
		return nil, err
	}
	o.byTool[name] = s
	return s, nil
}
