package servetest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// HTTPClient serves the same built server over streamable HTTP on loopback
// (the full handler: body limit, Origin, auth) and returns an initialized
// client speaking protocolVersion ("" = the newest, 2026-07-28) with headers
// on every request. Both are closed when the test ends.
func (c *Conn) HTTPClient(t testing.TB, protocolVersion string, headers map[string]string) *client.Client {
	t.Helper()
	ts := httptest.NewServer(serve.HTTPHandler(c.Built))
	t.Cleanup(ts.Close)
	tr, err := transport.NewStreamableHTTP(ts.URL+"/mcp", transport.WithHTTPHeaders(headers))
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if protocolVersion != "" {
		opts = append(opts, client.WithProtocolVersion(protocolVersion))
	}
	hc := client.NewClient(tr, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hc.Close() })
	if err := Initialize(ctx, hc, protocolVersion); err != nil {
		t.Fatalf("initialize over HTTP: %v", err)
	}
	return hc
}

// Initialize performs the MCP handshake for a test client.
func Initialize(ctx context.Context, c *client.Client, protocolVersion string) error {
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = protocolVersion
	if init.Params.ProtocolVersion == "" {
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	}
	init.Params.ClientInfo = mcp.Implementation{Name: "servetest", Version: "1"}
	_, err := c.Initialize(ctx, init)
	return err
}
