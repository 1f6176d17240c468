package main

import (
	"net"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestNoSecretsInLogsOrResults sets every secret the server could hold to a
// canary (the unused KTRDR_API_KEY, a password in KTRDR_API_URL) and checks
// that no tool result or log line carries one, on success and error paths.
func TestNoSecretsInLogsOrResults(t *testing.T) {
	const keyCanary, passCanary, downCanary = "canary-key-5e1f0c", "canary-pass-9b7d2a", "canary-pass-down-41c3"
	t.Setenv("KTRDR_API_KEY", keyCanary)
	t.Setenv("KTRDR_PASSWORD", keyCanary)
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	defer stop()
	withPass := strings.Replace(base, "http://", "http://researcher:"+passCanary+"@", 1)
	e := start(t, setup{args: []string{"--api-url", withPass, "--log-level", "debug"}})
	e.fake = f
	var haystack []string
	call := func(tool string, args map[string]any) {
		haystack = append(haystack, servetest.ResultJSON(e.call(t, tool, args)))
	}
	call("health_check", nil)
	call("list_operations", nil)
	call("get_operation_status", map[string]any{"operation_id": "op_nope"})
	call("trigger_data_loading", loadArgs)
	call("start_training", trainArgs)
	f.SetFaults(fake.Faults{Status: 500})
	call("get_symbols", nil)
	f.SetFaults(fake.Faults{Malformed: true})
	call("get_strategies", nil)
	f.SetFaults(fake.Faults{MissingID: true})
	call("start_training", trainArgs)
	f.ClearFaults()
	if !strings.Contains(haystack[0], `"status":"healthy"`) || !strings.Contains(haystack[0], "researcher") {
		t.Fatalf("the canary URL was not used: %s", haystack[0])
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	down := start(t, setup{args: []string{"--api-url", "http://researcher:" + downCanary + "@" + addr + "/api/v1"}})
	for _, tool := range []string{"health_check", "list_operations", "get_symbols"} {
		haystack = append(haystack, servetest.ResultJSON(down.call(t, tool, nil)))
	}
	haystack = append(haystack, e.conn.Logs(), down.conn.Logs())
	servetest.NoSecrets(t, haystack, keyCanary, passCanary, downCanary)
}
