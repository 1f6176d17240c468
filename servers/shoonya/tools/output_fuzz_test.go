package tools_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// FuzzSearchScripOutput: whatever Noren answers SearchScrip with,
// search_scrip either fails with an envelope error or answers something that
// conforms to its published output schema (production validates no result
// per call; issue 20). The login goes to the real fake; the seed is its
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
	def := servetest.ToolDef(f, e.conn.Client, "search_scrip")
	if res := e.call("search_scrip", map[string]any{"exchange": "NSE", "search_text": "INFY"}); res.IsError {
		f.Fatalf("seed call: %+v", res.Content)
	}
	real := proxy.Recorded()
	servetest.SeedAnswers(f, real)
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		proxy.Set(body)
		// A new search each time: a cached one would not read the body.
		res := servetest.CallClient(t, e.conn.Client, "search_scrip",
			map[string]any{"exchange": "NSE", "search_text": fmt.Sprintf("FUZZ%d", n.Add(1))})
		if res.IsError {
			if bytes.Equal(body, real) {
				t.Fatalf("the broker's real answer failed: %+v", res.Content)
			}
			return
		}
		if err := servetest.CheckOutput(def, res); err != nil {
			t.Fatalf("answer breaks the published output schema: %v\nbody: %q", err, body)
		}
	})
}
