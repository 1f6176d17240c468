// Package servetest drives an mcpfleet server through the MCP protocol in tests:
// an in-process client over the same server Build makes in production, golden
// tool-schema snapshots, the tool lint and the canary-secret check.
package servetest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// Conn is an initialized in-process MCP client of one server.
type Conn struct {
	Client *client.Client
	Built  *serve.Built
	logs   *Buffer
}

// Buffer is a goroutine-safe byte buffer: a log sink or a child's stderr in tests.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WaitFor reports whether the buffer holds sub within d. A process logs a
// call after answering it, and its stderr reaches the buffer through a pipe:
// a line about the last call may come after its answer.
func (s *Buffer) WaitFor(sub string, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if strings.Contains(s.String(), sub) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// New builds app with the given command-line args (env is the test's: use
// t.Setenv before) and connects an initialized in-process client. Logs are
// captured at debug level and available through Logs.
func New(t testing.TB, app serve.App, args ...string) *Conn {
	t.Helper()
	return NewWithOptions(t, app, nil, args...)
}

// NewWithOptions is New with client options (protocol version, elicitation handler...).
func NewWithOptions(t testing.TB, app serve.App, opts []client.ClientOption, args ...string) *Conn {
	t.Helper()
	redact.RegisterEnv()
	o, err := serve.ParseOptions(app, append([]string{"--log-level", "debug"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	o.Clock = clock.MustFromEnv() // the fakes' clock (MCPFLEET_FAKE_NOW), so server and fake agree on the day
	inMemoryUnlessSet(&o)
	logs := &Buffer{}
	log, err := serve.NewLogger(logs, o.LogLevel)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	b, err := serve.Build(ctx, app, o, log)
	if err != nil {
		t.Fatalf("build %s: %v", app.Name, err)
	}
	b.Server.Use(conformance(t, b.Server))
	return &Conn{Client: inProcess(t, ctx, b.Server, opts...), Built: b, logs: logs}
}

// Logs returns everything the server logged so far (already scrubbed).
func (c *Conn) Logs() string { return c.logs.String() }

// Tools lists the served tools through the protocol.
func (c *Conn) Tools(t testing.TB) []mcp.Tool {
	t.Helper()
	res, err := c.Client.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return res.Tools
}

// Call calls a tool with a 30 s deadline. A protocol error fails the test: tools
// answer through the envelope, so a protocol error is a bug.
func (c *Conn) Call(t testing.TB, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.CallCtx(ctx, tool, args)
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

// CallCtx is Call with the caller's context and the protocol error returned.
// Values on ctx reach the handler (in-process), e.g. identity.WithUser.
func (c *Conn) CallCtx(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	return c.Client.CallTool(ctx, req)
}

// Decode decodes a success result's structured content into T; an error result fails the test.
func Decode[T any](t testing.TB, res *mcp.CallToolResult) T {
	t.Helper()
	var v T
	if res.IsError {
		t.Fatalf("want success, got error: %s", Text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content does not decode into %T: %v\n%s", v, err, b)
	}
	return v
}

// ErrorBody returns the envelope error of an error result; a success fails the test.
func ErrorBody(t testing.TB, res *mcp.CallToolResult) envelope.Body {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got success: %s", Text(res))
	}
	var body envelope.Body
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &body); err != nil || body.Code == "" {
		t.Fatalf("error result without an envelope body: %s", Text(res))
	}
	return body
}

// Text joins a result's text content.
func Text(res *mcp.CallToolResult) string {
	var b bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ResultJSON is the whole result as JSON, for secret scans.
func ResultJSON(res *mcp.CallToolResult) string {
	b, _ := json.Marshal(res)
	return string(b)
}
