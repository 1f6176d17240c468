package main

import (
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// TestListResultRatio measures search_web's result (answer + citations, the
// text block and the structured content, the larger) against the Responses
// API body behind it, on the fake's scenarios built from the recorded real
// answers (reasoning items, web_search_call actions with sources, the
// message with url_citation annotations, usage).
func TestListResultRatio(t *testing.T) {
	f := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := f.Start()
	t.Cleanup(stop)
	proxyURL, upstream := servetest.CountingProxy(t, base)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MCPFLEET_REDIS_URL", "")
	conn := servetest.New(t, app(&tools.Config{RetryWait: 10 * time.Millisecond}), "--base-url", proxyURL+"/v1")
	// The answer is the product, not a projection of a list, so the ceiling
	// is the measured ratio. Completed (8,322 B upstream, with a commentary
	// message and tool_usage as gpt-6 models answer → 2,836 B): answer,
	// five citations (title, url and the cited sentence itself — the seed's
	// "title, URL, snippet"; offsets into the answer were dropped: they needed
	// a unit every client agrees on), trace (the model's 2 queries, 5
	// consulted-not-cited URLs, usage with billed searches and page opens). Only the trace is not what an agent decides on; putting it
	// behind an input option would not fit search_web's tools/list entry
	// (the server's average is 1,186 of 1,200 B), and its URLs are where a
	// user checks the answer. The gpt-4o shape (Plain) has no reasoning
	// items: less upstream around a similar answer.
	for _, tc := range []struct {
		scenario string
		ceiling  float64
	}{{fake.Completed, 0.35}, {fake.Plain, 0.37}} {
		sc := tc.scenario
		t.Run(sc, func(t *testing.T) {
			f.Push(fake.Fault{Scenario: sc, Count: 1})
			upstream.Store(0)
			res := conn.Call(t, "search_web", map[string]any{"query": "UAE central bank rate decision " + sc})
			if res.IsError {
				t.Fatalf("%s", servetest.Text(res))
			}
			servetest.ListRatio(t, "search_web", res, upstream.Load(), 2000, tc.ceiling)
		})
	}
}
