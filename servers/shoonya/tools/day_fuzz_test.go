package tools_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// fuzzDayTool: whatever Noren answers route with, tool either fails with an
// envelope error or answers what its published output schema allows. The
// seed is the fake's real answer.
func fuzzDayTool(f *testing.F, route, tool string, args func(e *env) map[string]any) {
	up := fake.New(fake.Config{TickInterval: -1})
	urls, err := up.Start()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(up.Close)
	host := strings.TrimSuffix(urls.LegacyREST, fake.PathLegacyREST)
	proxy := servetest.NewSwapProxy(f, host, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/"+route) }, "application/json")
	e := newEnv(f, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_REST_URL": proxy.URL + fake.PathLegacyREST}})
	e.fake = up
	e.connect()
	a := args(e)
	call := func(t testing.TB) *mcp.CallToolResult { return servetest.CallClient(t, e.conn.Client, tool, a) }
	def, real := servetest.ToolDef(f, e.conn.Client, tool), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}

func FuzzOrderMarginOutput(f *testing.F) {
	fuzzDayTool(f, "GetOrderMargin", "get_order_margin", func(*env) map[string]any { return marginArgs })
}

func FuzzOrderHistoryOutput(f *testing.F) {
	fuzzDayTool(f, "SingleOrdHist", "get_order_history", func(e *env) map[string]any { return map[string]any{"order_id": e.openOrder()} })
}
