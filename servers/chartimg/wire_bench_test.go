package main

import (
	"context"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/tools"
)

// stdioConn serves srv over in-memory pipes with mcp-go's stdio server and
// connects mcp-go's stdio client: the same JSON encoding and decoding as a real
// stdio session, without process and pipe scheduling.
func stdioConn(b *testing.B, srv *server.MCPServer) *client.Client {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	go func() { _ = server.NewStdioServer(srv).Listen(ctx, inR, outW) }()
	c := client.NewClient(transport.NewIO(outR, inW, nil))
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	return c
}

func benchCall(b *testing.B, c *client.Client, tool string, args map[string]any) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	ctx := context.Background()
	if _, err := c.CallTool(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkGetExchangesStdio is a cached get_exchanges call through mcp-go's
// stdio server and client (both encode and decode, as a real client does).
func BenchmarkGetExchangesStdio(b *testing.B) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	b.Setenv("CHART_IMG_API_KEY", "test-key")
	b.Setenv("MCPFLEET_STATE", "memory") // as users choose it: no state file in the tester's home
	a := app(&tools.Config{NoLimiter: true})
	o, err := serve.ParseOptions(a, []string{"--api-url", base, "--docs-url", base + "/", "--log-level", "error"}, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, o.LogLevel)
	built, err := serve.Build(context.Background(), a, o, log)
	if err != nil {
		b.Fatal(err)
	}
	benchCall(b, stdioConn(b, built.Server), "get_exchanges", nil)
}

// BenchmarkEchoFloorStdio is its anchor: a bare mcp-go echo tool over the same pipes.
func BenchmarkEchoFloorStdio(b *testing.B) {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("msg")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("msg", "")), nil
	})
	benchCall(b, stdioConn(b, srv), "echo", map[string]any{"msg": "hello"})
}

// BenchmarkSameAnswerBareStdio serves get_exchanges' exact answer (text and
// structured content, taken from our server) from a bare mcp-go server with no
// validation, middleware or drain: what this payload costs through mcp-go
// alone. BenchmarkGetExchangesStdio minus this is our server's own overhead.
func BenchmarkSameAnswerBareStdio(b *testing.B) {
	res := benchConn(b).Call(b, "get_exchanges", nil) // cached, as measured
	answer := &mcp.CallToolResult{Content: res.Content, RawStructuredContent: res.RawStructuredContent}
	srv := server.NewMCPServer("bare", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("get_exchanges"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer, nil
	})
	benchCall(b, stdioConn(b, srv), "get_exchanges", nil)
}
