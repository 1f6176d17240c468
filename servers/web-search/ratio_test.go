package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// countingWriter counts the bytes the fake sends back through the proxy.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	return w.ResponseWriter.Write(b)
}

// TestListResultRatio measures search_web's result (answer + citations, the
// text block and the structured content, the larger) against the Responses
// API body behind it, on the fake's scenarios built from the recorded real
// answers (reasoning items, web_search_call actions with sources, the
// message with url_citation annotations, usage).
func TestListResultRatio(t *testing.T) {
	f := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := f.Start()
	t.Cleanup(stop)
	target, _ := url.Parse(base)
	var upstream atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rp.ServeHTTP(countingWriter{w, &upstream}, r)
	}))
	t.Cleanup(proxy.Close)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MCPFLEET_REDIS_URL", "")
	conn := servetest.New(t, app(&tools.Config{RetryWait: 10 * time.Millisecond}), "--base-url", proxy.URL+"/v1")
	// The answer is the product, not a projection of a list: its text alone is
	// about a quarter of the Responses body, so the ceiling is the measured
	// ratio (citations are title, url, domain and the range into the answer;
	// the snippet is not repeated). The gpt-4o shape has no reasoning items:
	// less upstream around the same answer.
	for _, tc := range []struct {
		scenario string
		ceiling  float64
	}{{fake.Completed, 0.35}, {fake.Plain, 0.40}} {
		sc := tc.scenario
		t.Run(sc, func(t *testing.T) {
			f.Push(fake.Fault{Scenario: sc, Count: 1})
			upstream.Store(0)
			res := conn.Call(t, "search_web", map[string]any{"query": "UAE central bank rate decision " + sc})
			if res.IsError {
				t.Fatalf("%s", servetest.Text(res))
			}
			raw := upstream.Load()
			text := len(res.Content[0].(mcp.TextContent).Text)
			st, _ := json.Marshal(res.StructuredContent)
			ratio := float64(max(text, len(st))) / float64(raw)
			t.Logf("search_web: upstream %d B, text %d B, structured %d B: %.0f%%", raw, text, len(st), 100*ratio)
			if testing.Verbose() {
				t.Log(servetest.Text(res))
			}
			if raw < 2000 {
				t.Fatalf("the fake answered only %d B: nothing to measure", raw)
			}
			if ratio > tc.ceiling {
				t.Errorf("search_web: result is %.0f%% of the upstream answer, budget %.0f%%", 100*ratio, 100*tc.ceiling)
			}
		})
	}
}
