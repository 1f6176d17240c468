package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

// TestNoSecretsInLogsOrResults: the server holds no API key, but a base URL
// may carry credentials (a proxy in front of Google) and secret-named env
// vars may be set. Neither may reach a result or a log line, on success or
// error paths.
func TestNoSecretsInLogsOrResults(t *testing.T) {
	const passCanary, envCanary = "canary-pass-7f3e1d", "canary-env-2b9c44"
	t.Setenv("GOOGLE_NEWS_API_KEY", envCanary)
	f := fake.New(fake.Options{Now: func() time.Time { return t0 }})
	base, stop := f.Start()
	defer stop()
	withPass := strings.Replace(base, "http://", "http://proxyuser:"+passCanary+"@", 1)
	e := start(t, setup{fake: f, base: withPass, timeout: "300ms"})
	var hay []string
	call := func(tool string, args map[string]any) {
		hay = append(hay, servetest.ResultJSON(e.call(t, tool, args)))
	}
	call("list_editions", nil)
	call("build_search_feed", map[string]any{"terms": []string{"oil"}})
	call("preview_search_feed", map[string]any{"q": "oil"})
	call("fetch_search_feed", map[string]any{"query_key": servetest.Decode[built](t, e.call(t, "build_search_feed", map[string]any{"terms": []string{"gas"}})).QueryKey})
	for _, fl := range []fake.Faults{{Status: 429}, {Status: 500}, {Truncated: true}, {SlowMS: 1000}, {Unsupported: true}} {
		f.SetFaults(fl)
		call("preview_search_feed", map[string]any{"q": "fault " + strings.Repeat("x", len(hay))})
	}
	f.ClearFaults()
	if !strings.Contains(hay[1], base) || len(f.Requests()) == 0 {
		t.Fatalf("the canary URL was not used: %s", hay[1])
	}
	hay = append(hay, e.conn.Logs())
	servetest.NoSecrets(t, hay, passCanary, envCanary)
}
