package tools_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// FuzzSearchScripOutput: whatever Noren answers SearchScrip with,
// search_scrip either fails with an envelope error or answers something that
// conforms to its published output schema (production validates no result
// per call). The login goes to the real fake; the seed is its
// real answer.
func FuzzSearchScripOutput(f *testing.F) {
	up := fake.New(fake.Config{})
	urls, err := up.Start()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(up.Close)
	host := strings.TrimSuffix(urls.LegacyREST, fake.PathLegacyREST)
	proxy := servetest.NewSwapProxy(f, host, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/SearchScrip") },
		"application/json")
	e := newEnv(f, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_REST_URL": proxy.URL + fake.PathLegacyREST}})
	e.connect()
	var n atomic.Int64
	// INFY first (the seed), then a new search each time: a cached one would
	// not read the body.
	call := func(t testing.TB) *mcp.CallToolResult {
		text := "INFY"
		if i := n.Add(1); i > 1 {
			text = fmt.Sprintf("FUZZ%d", i)
		}
		return servetest.CallClient(t, e.conn.Client, "search_scrip", map[string]any{"exchange": "NSE", "search_text": text})
	}
	def, real := servetest.ToolDef(f, e.conn.Client, "search_scrip"), proxy.Seed(f, call)
	f.Fuzz(func(t *testing.T, body []byte) { proxy.Check(t, def, real, body, call) })
}
