package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// TestFaultTable runs search_web against an OpenAI that fails, cuts or
// empties its answers or refuses in its documented error shape, and
// fetch_page against a site that does: each answers an error or says its
// result is not whole; web text arrives marked as third-party text.
func TestFaultTable(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MCPFLEET_FETCH_ALLOW_LOOPBACK", "1")
	f := fake.New(fake.Options{Keys: []string{"sk-test"}})
	base, stop := f.Start()
	t.Cleanup(stop)
	connect := func(t testing.TB, base string) *servetest.Conn {
		cfg := &tools.Config{RetryWait: 10 * time.Millisecond, MaxAttempts: 2}
		return servetest.New(t, app(cfg), "--base-url", base+"/v1")
	}
	local := map[string]string{"get_search_capabilities": "reports this server's own settings and counters"}
	servetest.FaultTable{
		Upstream: base,
		Connect:  connect,
		Exempt:   merged(local, map[string]string{"fetch_page": "reads the page it is given: its own table below"}),
		Rows: []servetest.FaultRow{
			{Tool: "search_web", Args: map[string]any{"query": "latest Go release"}, ThirdParty: []string{"delta", "text", "title"}},
		},
		Refusals: []servetest.Refusal{
			// The Responses API's error object (developers.openai.com/api/reference/responses: error.message/type/code).
			{Name: "500 server_error", Status: 500, ContentType: "application/json",
				Body:   `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`,
				Source: "developers.openai.com/api/docs/guides/error-codes"},
			{Name: "429 insufficient_quota", Status: 429, ContentType: "application/json",
				Body:   `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
				Source: "developers.openai.com/api/docs/guides/error-codes"},
		},
	}.Run(t)

	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\nAllow: /\n") })
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!DOCTYPE html><html><head><title>Go 1.26 is released</title></head><body><article><h1>Go 1.26 is released</h1>
<p>The Go team announced the release today, with faster builds, a new garbage collector mode and many library changes.</p>
<p>Download it from the usual place; the release notes list every change in detail for those who upgrade.</p></article></body></html>`)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	t.Run("fetch_page", func(t *testing.T) {
		servetest.FaultTable{
			Upstream: site.URL,
			Connect:  connect,
			Exempt:   merged(local, map[string]string{"search_web": "its own table above"}),
			Rows: []servetest.FaultRow{
				{Tool: "fetch_page", Args: map[string]any{"url": "{upstream}/article"}, ThirdParty: []string{"title", "p"}},
			},
		}.Run(t)
	})
}

func merged(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
