package servetest

import (
	"context"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"io"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

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
	o.Clock = clock.MustFromEnv() // the fakes' clock (MCPFLEET_FAKE_NOW), so server and fake agree on the day
	inMemoryUnlessSet(&o)
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

// inMemoryUnlessSet keeps an in-process server's state in memory unless the
// test chose a backend (MCPFLEET_STATE, as users do), so tests never share a
// state file in the tester's home.
func inMemoryUnlessSet(o *serve.Options) {
	if os.Getenv(store.EnvMode) == "" {
		o.State = serve.StateMemory
	}
}
