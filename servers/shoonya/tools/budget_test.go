package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestBudget keeps shoonya's tools/list within the fleet's token budget and
// prints the per-tool table (go test -v -run Budget). The result contract's
// coverage fields (complete, empty, incomplete: about 470 B of output schema,
// the same in every list tool, docs/envelope.md "Coverage") are counted apart:
// the fleet requires them of every list result, so they are not this
// server's to trim; everything else must fit BudgetEntry.
func TestBudget(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	tools := e.conn.Built.Registry.Tools()
	costs := servetest.Costs(t, tools)
	var choose, entry, contract int
	for i, c := range costs {
		cov := coverageSchemaBytes(t, tools[i].Tool.RawOutputSchema)
		t.Logf("%-26s choose %5d  entry %5d  (coverage %d)", c.Name, c.Choose, c.Entry, cov)
		choose += c.Choose
		entry += c.Entry
		contract += cov
	}
	n := len(costs)
	t.Logf("%d tools: choose %d B/tool (budget %d), entry %d B/tool without coverage (budget %d), coverage %d B in all",
		n, choose/n, servetest.BudgetChoose, (entry-contract)/n, servetest.BudgetEntry, contract)
	if choose/n > servetest.BudgetChoose {
		t.Errorf("name+description+input schema average %d B per tool, budget %d B", choose/n, servetest.BudgetChoose)
	}
	if (entry-contract)/n > servetest.BudgetEntry {
		t.Errorf("tools/list entries average %d B per tool without coverage, budget %d B", (entry-contract)/n, servetest.BudgetEntry)
	}
}

// coverageSchemaBytes is what envelope.Coverage adds to an output schema:
// its three properties, as compact JSON with their keys.
func coverageSchemaBytes(t *testing.T, raw json.RawMessage) int {
	if len(raw) == 0 {
		return 0
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range []string{"complete", "empty", "incomplete"} {
		if p, ok := s.Properties[k]; ok {
			var v any
			_ = json.Unmarshal(p, &v)
			b, _ := json.Marshal(map[string]any{k: v})
			n += len(b) - 1 // the braces less the comma that joins it
		}
	}
	return n
}
