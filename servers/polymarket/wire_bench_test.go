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
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// stdioConn serves srv over in-memory pipes with mcp-go's stdio server and
// connects mcp-go's stdio client: the same JSON encoding and decoding as a
// real stdio session, without process and pipe scheduling.
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

// BenchmarkGetMarketCachedStdio is a cached get_market (the Gamma answer is in
// the 15 s cache after the first call) through mcp-go's stdio server and client.
func BenchmarkGetMarketCachedStdio(b *testing.B) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	defer stop()
	cfg := configForTest()
	cfg.PublicPerMinute = 1 << 30 // the benchmark measures the call, not the limiter's refusals
	a := app(cfg)
	b.Setenv("MCPFLEET_STATE", "memory") // as users choose it: no state file in the tester's home
	o, err := serve.ParseOptions(a, []string{"--gamma-url", base, "--clob-url", base, "--data-url", base,
		"--btc-url", base, "--btc-fallback-url", base, "--log-level", "error"}, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, o.LogLevel)
	built, err := serve.Build(context.Background(), a, o, log)
	if err != nil {
		b.Fatal(err)
	}
	id, _, _, _ := f.Market(3)
	benchCall(b, stdioConn(b, built.Server), "get_market", map[string]any{"identifier": id})
	if n := f.Count(fake.RouteMarket); n > 1+b.N/1000 {
		b.Fatalf("%d Gamma requests: the cache did not answer", n)
	}
}

// BenchmarkEchoFloorStdio is its anchor: a bare mcp-go echo tool over the same pipes.
func BenchmarkEchoFloorStdio(b *testing.B) {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("msg")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("msg", "")), nil
	})
	benchCall(b, stdioConn(b, srv), "echo", map[string]any{"msg": "hello"})
}
