package serve_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// scrape reads /metrics into series → value ("name{labels}" as exposed).
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad metrics line %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetricsMoveWithCalls runs a server with MCPFLEET_METRICS_ADDR, makes
// calls over HTTP and scrapes the separate listener.
func TestMetricsMoveWithCalls(t *testing.T) {
	mcpAddr, metricsAddr := freeAddr(t), freeAddr(t)
	t.Setenv("MCPFLEET_METRICS_ADDR", metricsAddr)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- serve.Run(ctx, testApp(), []string{"--transport", "http", "--addr", mcpAddr}, nil, io.Discard, io.Discard)
	}()
	t.Cleanup(func() { cancel(); <-done })
	murl := "http://" + metricsAddr + "/metrics"
	for i := 0; ; i++ {
		if r, err := http.Get(murl); err == nil {
			r.Body.Close()
			break
		}
		if i == 200 {
			t.Fatal("metrics listener did not come up")
		}
		time.Sleep(25 * time.Millisecond)
	}
	if r, err := http.Get("http://" + mcpAddr + "/metrics"); err == nil {
		r.Body.Close()
		if r.StatusCode == 200 {
			t.Fatal("/metrics is served on the MCP port")
		}
	}
	before := scrape(t, murl)

	tr, err := transport.NewStreamableHTTP("http://" + mcpAddr + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := servetest.Initialize(ctx, c, mcp.LATEST_LEGACY_PROTOCOL_VERSION); err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) {
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "echo", args
		if _, err := c.CallTool(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	call(map[string]any{"msg": "a"})
	call(map[string]any{"msg": "b"})
	call(map[string]any{"msg": "c", "fail": "rate"})
	during := scrape(t, murl)
	_ = c.Close()

	deltas := map[string]float64{
		`mcpfleet_tool_calls_total{code="ok",server="testsrv",tool="echo"}`:           2,
		`mcpfleet_tool_calls_total{code="rate_limited",server="testsrv",tool="echo"}`: 1,
		`mcpfleet_tool_call_duration_seconds_count{server="testsrv",tool="echo"}`:     3,
		`mcpfleet_rate_limit_refusals_total{server="testsrv",tool="echo"}`:            1,
		`mcpfleet_sessions_active{server="testsrv"}`:                                  1,
	}
	for series, want := range deltas {
		if got := during[series] - before[series]; got != want {
			t.Errorf("%s moved by %v, want %v", series, got, want)
		}
	}
	for series := range during {
		if strings.Contains(series, "canary") || strings.Contains(series, "user=") {
			t.Errorf("a label carries user data: %s", series)
		}
	}
}
