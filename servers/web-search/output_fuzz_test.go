package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// FuzzSearchWebOutput: whatever the Responses API answers, search_web either
// fails with an envelope error or answers something that conforms to its
// published output schema (production validates no result per call; issue 20).
// The seed is the fake's real answer.
func FuzzSearchWebOutput(f *testing.F) {
	fk := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := fk.Start()
	f.Cleanup(stop)
	proxy := servetest.NewSwapProxy(f, base, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/responses") }, "application/json")
	f.Setenv("OPENAI_API_KEY", "sk-test")
	f.Setenv("MCPFLEET_REDIS_URL", "")
	c := servetest.NewProduction(f, app(&tools.Config{MaxAttempts: 1, RetryWait: time.Millisecond}),
		"--base-url", proxy.URL+"/v1", "--limit", "1000000000")
	def := servetest.ToolDef(f, c, "search_web")
	if res := servetest.CallClient(f, c, "search_web", map[string]any{"query": "seed query"}); res.IsError {
		f.Fatalf("seed call: %+v", res.Content)
	}
	real := proxy.Recorded()
	servetest.SeedAnswers(f, real)
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		proxy.Set(body)
		// A new query each time: a cached answer would not read the body.
		res := servetest.CallClient(t, c, "search_web", map[string]any{"query": fmt.Sprintf("fuzz %d", n.Add(1))})
		if res.IsError {
			if bytes.Equal(body, real) {
				t.Fatalf("the upstream's real answer failed: %+v", res.Content)
			}
			return
		}
		if err := servetest.CheckOutput(def, res); err != nil {
			t.Fatalf("answer breaks the published output schema: %v\nbody: %q", err, body)
		}
	})
}
