package servetest

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// FloorAllocRatio is the most allocations per call a representative tool may
// make relative to the same-bytes floor (issue 20): a change that adds a
// marshal or unmarshal pass to every call crosses it on any machine.
const FloorAllocRatio = 1.3

// Answer is a tool's success answer as the client received it: the structured
// content's bytes and the text rendering. The floor serves exactly these.
type Answer struct {
	Structured json.RawMessage
	Text       string
}

// AnswerOf captures res (a success) as an Answer.
func AnswerOf(t testing.TB, res *mcp.CallToolResult) Answer {
	t.Helper()
	if res.IsError {
		t.Fatalf("floor needs a success answer, got: %s", Text(res))
	}
	b := res.RawStructuredContent
	if len(b) == 0 {
		var err error
		if b, err = json.Marshal(res.StructuredContent); err != nil {
			t.Fatal(err)
		}
	}
	return Answer{Structured: append(json.RawMessage(nil), b...), Text: Text(res)}
}

// Floor is the same-bytes floor: a bare mcp-go server whose one tool, named
// tool, returns a's bytes and text — no validation, middleware, hooks or
// logging. Whatever a real server costs beyond this for the same answer is
// the spine's overhead, not the payload's.
func Floor(tool string, a Answer) *server.MCPServer {
	return FloorWith(tool, a, nil)
}

// FloorWith is Floor whose handler first does work (when not nil): for a tool
// that answers from an upstream, the same upstream request through the
// server's own client, so floor and tool differ by the spine alone.
func FloorWith(tool string, a Answer, work func(context.Context) error) *server.MCPServer {
	srv := server.NewMCPServer("floor", "1", server.WithToolCapabilities(false))
	res := &mcp.CallToolResult{
		Content:              []mcp.Content{mcp.TextContent{Type: "text", Text: a.Text}},
		RawStructuredContent: a.Structured,
	}
	srv.AddTool(mcp.NewTool(tool), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if work != nil {
			if err := work(ctx); err != nil {
				return nil, err
			}
		}
		return res, nil
	})
	return srv
}

// NewProduction builds app as production does (info-level logging, to a sink
// that discards, so the call log line is formatted as in production; no test
// conformance middleware) and connects an initialized in-process client.
func NewProduction(t testing.TB, app serve.App, args ...string) *client.Client {
	t.Helper()
	redact.RegisterEnv()
	o, err := serve.ParseOptions(app, append([]string{"--log-level", "info"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	log, err := serve.NewLogger(io.Discard, o.LogLevel)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	b, err := serve.Build(ctx, app, o, log)
	if err != nil {
		t.Fatalf("build %s: %v", app.Name, err)
	}
	return inProcess(t, ctx, b.Server)
}

// inProcess starts an in-process client of srv and initializes it; closed
// when the test ends.
func inProcess(t testing.TB, ctx context.Context, srv *server.MCPServer, opts ...client.ClientOption) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(srv, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ictx, icancel := context.WithTimeout(ctx, 10*time.Second)
	defer icancel()
	if err := Initialize(ictx, c, ""); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// AllocsPerCall is the average number of heap allocations of one tools/call
// of tool with args through c (client and server in one process, so both
// sides' encoding counts, as on a real transport). Every call must succeed.
func AllocsPerCall(t testing.TB, c *client.Client, tool string, args map[string]any) float64 {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	ctx := context.Background()
	var failed *mcp.CallToolResult
	var ferr error
	call := func() {
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			failed, ferr = res, err
		}
	}
	call() // warm caches, lazy schemas and pools first
	n := testing.AllocsPerRun(200, call)
	if ferr != nil || failed != nil {
		t.Fatalf("%s: call failed during the allocation run: %v %v", tool, ferr, failed)
	}
	return n
}

// GuardAllocs is the deterministic overhead guard: it calls tool with args on
// ours (a production build, see NewProduction), captures the answer, serves the
// very same answer from Floor, and fails when ours allocates more than
// FloorAllocRatio times the floor per call. It returns both counts.
func GuardAllocs(t testing.TB, ours *client.Client, tool string, args map[string]any) (oursAllocs, floorAllocs float64) {
	t.Helper()
	return GuardAllocsWith(t, ours, tool, args, nil)
}

// GuardAllocsWith is GuardAllocs against FloorWith(work): for tools whose
// answer needs an upstream request, the floor makes the same request.
func GuardAllocsWith(t testing.TB, ours *client.Client, tool string, args map[string]any, work func(context.Context) error) (oursAllocs, floorAllocs float64) {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := ours.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	floor := inProcess(t, context.Background(), FloorWith(tool, AnswerOf(t, res), work))
	oursAllocs = AllocsPerCall(t, ours, tool, args)
	floorAllocs = AllocsPerCall(t, floor, tool, args)
	t.Logf("%s: %.0f allocs/call, same-bytes floor %.0f (%.2f×, limit %.2f×)", tool, oursAllocs, floorAllocs, oursAllocs/floorAllocs, FloorAllocRatio)
	if oursAllocs > FloorAllocRatio*floorAllocs {
		t.Errorf("%s allocates %.0f per call, %.2f× the same-bytes floor's %.0f (limit %.2f×): something added a pass over every call",
			tool, oursAllocs, oursAllocs/floorAllocs, floorAllocs, FloorAllocRatio)
	}
	return oursAllocs, floorAllocs
}

// CallClient calls tool on any client with a 30 s deadline; a protocol error
// fails the test.
func CallClient(t testing.TB, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

// ToolDef returns the published definition of tool from c's tools/list.
func ToolDef(t testing.TB, c *client.Client, tool string) mcp.Tool {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tl := range res.Tools {
		if tl.Name == tool {
			return tl
		}
	}
	t.Fatalf("%s is not listed", tool)
	return mcp.Tool{}
}
