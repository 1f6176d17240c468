package main

import (
	"context"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// search_web through mcp-go's clients against the fake, beside the mcp-go
// echo floor over the same transport, in the same run.

func benchArgs() map[string]any { return q("UAE central bank rate decision", "maxResults", 5) }

func benchCall(b *testing.B, c *client.Client, tool string, args map[string]any) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	ctx := context.Background()
	if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
		b.Fatal(err, res)
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

func echoServer() *server.MCPServer {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("msg")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("msg", "")), nil
	})
	return srv
}

func benchEnv(b *testing.B, extra ...string) *env {
	return start(b, setup{extra: append([]string{"--log-level", "error", "--limit", "1000000000"}, extra...)})
}

// BenchmarkSearchWebCachedInProcess: an identical repeat, answered from the
// per-user cache (no HTTP), through the in-process client.
func BenchmarkSearchWebCachedInProcess(b *testing.B) {
	benchCall(b, benchEnv(b).conn.Client, "search_web", benchArgs())
}

// BenchmarkSearchWebUncachedInProcess: every call admitted by the limiter and
// sent to the fake over loopback HTTP (request encode, 7 KB answer decode,
// parse, render).
func BenchmarkSearchWebUncachedInProcess(b *testing.B) {
	benchCall(b, benchEnv(b, "--cache-ttl", "0").conn.Client, "search_web", benchArgs())
}

// BenchmarkEchoFloorInProcess is their anchor.
func BenchmarkEchoFloorInProcess(b *testing.B) {
	c, err := client.NewInProcessClient(echoServer())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	benchCall(b, c, "echo", map[string]any{"msg": "hello"})
}

// stdioConn serves srv over in-memory pipes with mcp-go's stdio server and
// client: the JSON encoding of a real stdio session without processes.
func stdioConn(b *testing.B, srv *server.MCPServer) *client.Client {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
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

func BenchmarkSearchWebCachedStdio(b *testing.B) {
	benchCall(b, stdioConn(b, benchEnv(b).conn.Built.Server), "search_web", benchArgs())
}

func BenchmarkSearchWebUncachedStdio(b *testing.B) {
	benchCall(b, stdioConn(b, benchEnv(b, "--cache-ttl", "0").conn.Built.Server), "search_web", benchArgs())
}

func BenchmarkEchoFloorStdio(b *testing.B) {
	benchCall(b, stdioConn(b, echoServer()), "echo", map[string]any{"msg": "hello"})
}
