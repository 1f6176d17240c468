package main

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

func TestMain(m *testing.M) {
	servetest.ServeIfChild(func() serve.App { return app(&tools.Config{}) })
	os.Exit(m.Run())
}

// TestKeysAndWindowsAcrossProcesses: without Redis, a query_key built by one
// server process is fetched by the next (a scheduled run is a new stdio
// process), and Google is polled once per window between processes, one
// after another and side by side. Before the state file the second process
// answered not_found, and each process polled on its own.
func TestKeysAndWindowsAcrossProcesses(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	env := []string{feed.EnvBaseURL + "=" + base, "MCPFLEET_REDIS_URL=", "MCPFLEET_STATE=file",
		"MCPFLEET_STATE_DIR=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=warn"}
	start := func() *process { return &process{conn: servetest.StartProcess(t, env...)} }

	builder := start()
	k := builder.build(t, map[string]any{"terms": []string{"shipping"}, "site": []string{"reuters.com"}}).QueryKey
	other := builder.build(t, map[string]any{"terms": []string{"cotton"}}).QueryKey
	_ = builder.conn.Client.Close()

	first := start()
	if r := first.fetch(t, k); r.Status != "fresh" || len(r.Items) == 0 {
		t.Fatalf("first process: %+v", r)
	}
	_ = first.conn.Client.Close()
	second := start()
	if r := second.fetch(t, k); r.Status != "cached" || len(r.Items) == 0 {
		t.Fatalf("second process, same window: %+v", r)
	}
	if n := f.Count(); n != 1 {
		t.Fatalf("%d polls of one key in one window across processes, want 1", n)
	}

	a, b := second, start()
	var wg sync.WaitGroup
	statuses := make(chan string, 6)
	for i := range 6 {
		e := []*process{a, b}[i%2]
		wg.Go(func() {
			res, err := e.conn.CallCtx(context.Background(), "fetch_search_feed", map[string]any{"query_key": other})
			if err != nil || res.IsError {
				t.Errorf("concurrent fetch: %v %v", err, res)
				return
			}
			statuses <- servetest.Decode[fetched](t, res).Status
		})
	}
	wg.Wait()
	close(statuses)
	fresh := 0
	for s := range statuses {
		if s == "fresh" {
			fresh++
		}
	}
	if fresh != 1 || f.Count() != 2 {
		t.Fatalf("side by side: %d fresh answers, %d polls; want 1 and 2", fresh, f.Count())
	}
}

// process is a server process with the helpers of env (no fake clock: the
// processes read the real one).
type process struct{ conn *servetest.Conn }

func (e *process) build(t *testing.T, args map[string]any) built {
	return (&env{conn: e.conn}).build(t, args)
}

func (e *process) fetch(t *testing.T, key string) fetched {
	return (&env{conn: e.conn}).fetch(t, key)
}
