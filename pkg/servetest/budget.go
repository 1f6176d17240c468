package servetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// The fleet's token budget for tools/list, averaged over a server's tools:
// what the model reads to choose and call a tool (name, description, input
// schema) and the whole entry as sent (with annotations and output schema).
const (
	BudgetChoose = 700
	BudgetEntry  = 1200
)

// ToolCost is one tool's share of tools/list, in bytes of compact JSON.
type ToolCost struct {
	Name                       string
	Description, Input, Output int
	Choose, Entry              int
}

// Costs measures every tool the way a client receives it in tools/list.
func Costs(t testing.TB, tools []toolkit.Tool) []ToolCost {
	t.Helper()
	var out []ToolCost
	for _, tl := range tools {
		entry, err := json.Marshal(tl.Tool)
		if err != nil {
			t.Fatalf("%s: %v", tl.Name(), err)
		}
		in := compactLen(t, schemaOf(tl.Tool, true))
		outS := compactLen(t, schemaOf(tl.Tool, false))
		c := ToolCost{Name: tl.Name(), Description: len(tl.Tool.Description), Input: in, Output: outS,
			Entry: len(entry)}
		c.Choose = len(tl.Name()) + c.Description + c.Input
		out = append(out, c)
	}
	return out
}

func compactLen(t testing.TB, raw json.RawMessage) int {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return len(b)
}

// Budget fails when a server's tools average more than BudgetChoose bytes for
// name+description+input schema or BudgetEntry bytes per tools/list entry, and
// logs the per-tool table either way (go test -v -run Budget shows it).
func Budget(t testing.TB, server string, tools []toolkit.Tool) {
	t.Helper()
	costs := Costs(t, tools)
	if len(costs) == 0 {
		t.Fatal("no tools")
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s tools/list: %-36s %6s %6s %6s %7s %6s\n", server, "tool", "descr", "input", "output", "choose", "entry")
	var choose, entry int
	for _, c := range costs {
		fmt.Fprintf(&sb, "%s tools/list: %-36s %6d %6d %6d %7d %6d\n", server, c.Name, c.Description, c.Input, c.Output, c.Choose, c.Entry)
		choose += c.Choose
		entry += c.Entry
	}
	n := len(costs)
	fmt.Fprintf(&sb, "%s tools/list: %d tools, %d B total (~%d tokens); per tool: choose %d B (budget %d), entry %d B (budget %d)",
		server, n, entry, entry/4, choose/n, BudgetChoose, entry/n, BudgetEntry)
	t.Log(sb.String())
	if choose/n > BudgetChoose {
		t.Errorf("%s: name+description+input schema average %d B per tool, budget %d B", server, choose/n, BudgetChoose)
	}
	if entry/n > BudgetEntry {
		t.Errorf("%s: tools/list entries average %d B per tool, budget %d B", server, entry/n, BudgetEntry)
	}
}
