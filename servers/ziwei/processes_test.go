package main

import (
	"os"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

func TestMain(m *testing.M) {
	servetest.ServeIfChild(func() serve.App { return app(&tools.Config{}) })
	os.Exit(m.Run())
}

// TestRulesSurviveARestart: a rule stored through one server process is
// there for the next one (a stdio client starts a process per session),
// kept in the state file, not in the JSON file of older releases.
func TestRulesSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	env := []string{"MCPFLEET_STATE=file", "MCPFLEET_STATE_DIR=" + dir, "MCPFLEET_LOG_LEVEL=warn",
		"ZIWEI_RULES_FILE=" + dir + "/absent.json"}
	first := servetest.StartProcess(t, env...)
	rule := map[string]any{"stars": []any{"巨门"}, "in": "命宫"}
	structured(t, first, "store_star_combination_meaning", map[string]any{"name": "巨门坐命", "meaning": "口才", "rule": rule})
	_ = first.Client.Close()

	second := servetest.StartProcess(t, env...)
	res := structured(t, second, "query_star_combination_meaning", map[string]any{})["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["name"] != "巨门坐命" {
		t.Fatalf("after a restart: %v", res)
	}
	if _, err := os.Stat(dir + "/ziwei.db"); err != nil {
		t.Fatalf("state file: %v", err)
	}
}
