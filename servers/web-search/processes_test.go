package main

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

func TestMain(m *testing.M) {
	servetest.ServeIfChild(func() serve.App { return app(&tools.Config{}) })
	os.Exit(m.Run())
}

// processEnv is the environment of a web-search process on its own state
// directory, without Redis, talking to f.
func processEnv(t *testing.T, base, stateDir string) []string {
	t.Helper()
	return []string{"OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=" + base + "/v1", "MCPFLEET_REDIS_URL=",
		"MCPFLEET_STATE=file", "MCPFLEET_STATE_DIR=" + stateDir, "MCPFLEET_LOG_LEVEL=warn"}
}

// searches runs n distinct searches (tagged) through c and counts the admitted
// ones; every refusal must be rate_limited with a retry-after.
func searches(t *testing.T, c *servetest.Conn, tag string, n int) int {
	admitted := 0
	for i := range n {
		res := c.Call(t, "search_web", q(fmt.Sprintf("%s query %d", tag, i)))
		if !res.IsError {
			admitted++
			continue
		}
		if b := servetest.ErrorBody(t, res); b.Code != envelope.RateLimited || b.RetryAfterS == nil {
			t.Fatalf("%s call %d: %+v", tag, i, b)
		}
	}
	return admitted
}

// TestProcessesShareTheWindow: without Redis, separate processes of
// web-search (one per client session, as stdio clients start them) share
// the 20 searches per 10 minutes through the state file: one after another
// and side by side. Before the state file each process had its own 20.
func TestProcessesShareTheWindow(t *testing.T) {
	t.Run("one after another", func(t *testing.T) {
		f := fake.New(fake.Options{})
		base, stop := f.Start()
		t.Cleanup(stop)
		env := processEnv(t, base, t.TempDir())
		first := servetest.StartProcess(t, env...)
		if got := searches(t, first, "a", 12); got != 12 {
			t.Fatalf("first process: %d admitted, want 12", got)
		}
		_ = first.Client.Close()
		second := servetest.StartProcess(t, env...)
		if got := searches(t, second, "b", 12); got != 8 {
			t.Fatalf("second process: %d admitted, want the 8 left of 20", got)
		}
		caps := servetest.Decode[tools.CapsOut](t, second.Call(t, "get_search_capabilities", nil))
		if caps.Remaining != 0 || caps.NextFreeAt == "" {
			t.Errorf("caps after 20: %+v", caps)
		}
		if f.Count() != 20 {
			t.Fatalf("OpenAI asked %d times, want 20", f.Count())
		}
	})
	t.Run("side by side", func(t *testing.T) {
		f := fake.New(fake.Options{})
		base, stop := f.Start()
		t.Cleanup(stop)
		env := processEnv(t, base, t.TempDir())
		procs := []*servetest.Conn{servetest.StartProcess(t, env...), servetest.StartProcess(t, env...)}
		var total atomic.Int64
		var wg sync.WaitGroup
		for i, c := range procs {
			for g := range 2 {
				wg.Go(func() { total.Add(int64(searches(t, c, fmt.Sprintf("p%dg%d", i, g), 8))) })
			}
		}
		wg.Wait()
		if total.Load() != 20 || f.Count() != 20 {
			t.Fatalf("admitted %d, OpenAI asked %d times; want 20 over both processes", total.Load(), f.Count())
		}
	})
}
