package main

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// FuzzListOperationsOutput: whatever the backend answers GET /operations
// with, list_operations either fails with an envelope error or answers
// something that conforms to its published output schema (production
// validates no result per call; issue 20). The seed is the fake's answer.
func FuzzListOperationsOutput(f *testing.F) {
	fk := fake.New(fake.Options{})
	base, stop := fk.Start()
	f.Cleanup(stop)
	host := strings.TrimSuffix(base, fake.APIPrefix)
	proxy := servetest.NewSwapProxy(f, host, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/operations") },
		"application/json")
	c := servetest.NewProduction(f, app(&tools.Config{Retries: -1}), "--api-url", proxy.URL+fake.APIPrefix)
	def := servetest.ToolDef(f, c, "list_operations")
	if res := servetest.CallClient(f, c, "list_operations", nil); res.IsError {
		f.Fatalf("seed call: %+v", res.Content)
	}
	real := proxy.Recorded()
	servetest.SeedAnswers(f, real)
	f.Fuzz(func(t *testing.T, body []byte) {
		proxy.Set(body)
		res := servetest.CallClient(t, c, "list_operations", nil)
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
