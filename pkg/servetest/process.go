package servetest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// childEnv marks a test binary started by StartProcess.
const childEnv = "MCPFLEET_SERVETEST_CHILD"

// ServeIfChild must be the first call of the package's TestMain when its tests
// use StartProcess: in a child it serves app over stdio (like the real
// binary's main) and exits; in the test process it returns at once.
func ServeIfChild(app func() serve.App) {
	if os.Getenv(childEnv) == "" {
		return
	}
	os.Args = os.Args[:1]
	serve.Main(app())
}

// StartProcess runs this test binary as a separate server process (see
// ServeIfChild) with env added to the test's environment, and returns an
// initialized stdio client of it: two calls are two processes, as two
// clients (or two scheduled runs) of one installed server are. The process
// is stopped when the test ends; Close stops it earlier.
func StartProcess(t testing.TB, env ...string) *Conn {
	t.Helper()
	logs := &Buffer{}
	env = append([]string{childEnv + "=1"}, env...)
	c, err := client.NewStdioMCPClientWithOptions(os.Args[0], env, []string{"-test.run=^$"},
		transport.WithCommandStderrWriter(logs))
	if err != nil {
		t.Fatalf("start server process: %v", err)
	}
	conn := &Conn{Client: c, logs: logs}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "servetest-process", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize server process: %v\n%s", err, logs.String())
	}
	return conn
}
