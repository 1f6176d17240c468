package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// TestLimitsAcrossProcesses: without Redis the per-user limits live in the
// state file, so a second server process (a new stdio session) continues
// the first one's window instead of starting a fresh allowance; with
// MCPFLEET_STATE=memory each process starts afresh.
func TestLimitsAcrossProcesses(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	urls := []string{"POLYMARKET_GAMMA_URL=" + base, "POLYMARKET_CLOB_URL=" + base, "POLYMARKET_DATA_URL=" + base,
		"POLYMARKET_BTC_URL=" + base, "POLYMARKET_BTC_FALLBACK_URL=" + base}
	n := 0
	calls := func(c *servetest.Conn, k int) (admitted int) {
		for range k {
			id, _, _, _ := f.Market(n) // a new market each call: cache hits do not count
			n++
			res := c.Call(t, "get_market", map[string]any{"identifier": id})
			if !res.IsError {
				admitted++
				continue
			}
			if b := servetest.ErrorBody(t, res); b.Code != envelope.RateLimited || !strings.Contains(b.Message, "3 public read") {
				t.Fatalf("refusal: %+v", b)
			}
		}
		return admitted
	}
	for _, tc := range []struct {
		name       string
		state      string
		wantSecond int
	}{
		{"state file: the second process gets what is left", "file", 1},
		{"memory: each process starts afresh", "memory", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := append([]string{"MCPFLEET_STATE=" + tc.state, "MCPFLEET_STATE_DIR=" + t.TempDir(), "MCPFLEET_REDIS_URL=",
				"POLYMARKET_PUBLIC_PER_MINUTE=3", "MCPFLEET_LOG_LEVEL=warn"}, urls...)
			first := servetest.StartProcess(t, env...)
			if got := calls(first, 2); got != 2 {
				t.Fatalf("first process: %d calls admitted, want 2", got)
			}
			_ = first.Client.Close()
			second := servetest.StartProcess(t, env...)
			if got := calls(second, 3); got != tc.wantSecond {
				t.Fatalf("second process: %d calls admitted, want %d", got, tc.wantSecond)
			}
			_ = second.Client.Close()
		})
	}
}
