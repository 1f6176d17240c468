package main

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// BenchmarkFetchSearchFeedCached is the scheduled path's common case: the
// window is already polled, so fetch_search_feed answers 28 items from the
// memory store through the in-process MCP client (claim check, store read,
// output validation, encoding).
func BenchmarkFetchSearchFeedCached(b *testing.B) {
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	b.Cleanup(stop)
	b.Setenv("MCPFLEET_REDIS_URL", "")
	conn := servetest.New(b, app(&tools.Config{Clock: clk}), "--base-url", base, "--log-level", "error")
	res := conn.Call(b, "build_search_feed", map[string]any{"terms": []string{"shipping"}})
	args := map[string]any{"query_key": servetest.Decode[built](b, res).QueryKey}
	if r := conn.Call(b, "fetch_search_feed", args); r.IsError {
		b.Fatal(servetest.Text(r))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := conn.Call(b, "fetch_search_feed", args); r.IsError {
			b.Fatal(servetest.Text(r))
		}
	}
	b.StopTimer()
	if f.Count() != 1 {
		b.Fatalf("%d polls; the benchmark must measure the cached path", f.Count())
	}
}

// BenchmarkEchoFloor is the anchor: a bare mcp-go server with one echo tool,
// called through the same in-process client in the same run.
func BenchmarkEchoFloor(b *testing.B) {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("msg")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("msg", "")), nil
	})
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"msg": "hi"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSameAnswerBare serves fetch_search_feed's exact cached answer (text
// and structured content, taken from our server) from a bare mcp-go server
// with no validation or middleware: what this payload costs through mcp-go
// alone. BenchmarkFetchSearchFeedCached minus this is our server's overhead.
func BenchmarkSameAnswerBare(b *testing.B) {
	clk := clock.NewFake(t0)
	f := fake.New(fake.Options{Now: clk.Now})
	base, stop := f.Start()
	b.Cleanup(stop)
	b.Setenv("MCPFLEET_REDIS_URL", "")
	conn := servetest.New(b, app(&tools.Config{Clock: clk}), "--base-url", base, "--log-level", "error")
	key := servetest.Decode[built](b, conn.Call(b, "build_search_feed", map[string]any{"terms": []string{"shipping"}})).QueryKey
	conn.Call(b, "fetch_search_feed", map[string]any{"query_key": key})
	res := conn.Call(b, "fetch_search_feed", map[string]any{"query_key": key}) // cached, as measured
	answer := &mcp.CallToolResult{Content: res.Content, StructuredContent: res.StructuredContent, RawStructuredContent: res.RawStructuredContent}
	srv := server.NewMCPServer("bare", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("fetch_search_feed"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer, nil
	})
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		b.Fatal(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "fetch_search_feed"
	req.Params.Arguments = map[string]any{"query_key": key}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(servetest.ResultJSON(res))), "result-bytes")
}
