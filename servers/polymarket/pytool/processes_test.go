package pytool_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
)

// TestRunsPerHourAcrossProcesses: without Redis, the runs-per-hour limit is
// kept in the state file, so a new server process (a new stdio session)
// does not start with a fresh allowance. Each refusal is rate_limited.
func TestRunsPerHourAcrossProcesses(t *testing.T) {
	env := []string{"MCPFLEET_STATE=file", "MCPFLEET_STATE_DIR=" + t.TempDir(), "MCPFLEET_REDIS_URL=",
		pytool.EnvRunsPerHour + "=3", "MCPFLEET_LOG_LEVEL=warn"}
	runs := func(c *servetest.Conn, n int) (admitted int) {
		for range n {
			res := c.Call(t, pytool.Name, map[string]any{"code": "print(1)"})
			if !res.IsError {
				admitted++
				continue
			}
			if b := servetest.ErrorBody(t, res); b.Code != envelope.RateLimited || !strings.Contains(b.Message, "3 Python runs per hour") {
				t.Fatalf("refusal: %+v", b)
			}
		}
		return admitted
	}
	first := servetest.StartProcess(t, env...)
	if got := runs(first, 2); got != 2 {
		t.Fatalf("first process: %d runs admitted, want 2", got)
	}
	_ = first.Client.Close()
	second := servetest.StartProcess(t, env...)
	if got := runs(second, 3); got != 1 {
		t.Fatalf("second process: %d runs admitted, want the 1 left of 3", got)
	}
	_ = second.Client.Close()
}
