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
	// BudgetCoverage bounds what envelope.Coverage adds to one output schema.
	BudgetCoverage = 320
)

// ToolCost is one tool's share of tools/list, in bytes of compact JSON.
type ToolCost struct {
	Name                       string
	Description, Input, Output int
	Choose, Entry              int
	// Coverage is the part of Output that envelope.Coverage adds (complete,
	// incomplete, empty). The fleet requires it of every list result, so
	// Budget counts it apart rather than make a server trim what users need.
	Coverage int
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
		outSchema := schemaOf(tl.Tool, false)
		c := ToolCost{Name: tl.Name(), Description: len(tl.Tool.Description), Input: in, Output: compactLen(t, outSchema),
			Entry: len(entry), Coverage: coverageLen(t, outSchema)}
		c.Choose = len(tl.Name()) + c.Description + c.Input
		out = append(out, c)
	}
	return out
}

// coverageKeys are the output-schema properties envelope.Coverage adds.
var coverageKeys = []string{"complete", "incomplete", "empty"}

// coverageLen is the compact JSON size of the coverage properties in an
// output schema, with their keys and the commas that join them.
func coverageLen(t testing.TB, raw json.RawMessage) int {
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
	for _, k := range coverageKeys {
		if p, ok := s.Properties[k]; ok {
			n += len(k) + 4 + compactLen(t, p) // "k": and a comma
		}
	}
	return n
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
// name+description+input schema or BudgetEntry bytes per tools/list entry
// (the result contract's coverage properties counted apart, each tool's at
// most BudgetCoverage), and logs the per-tool table either way (go test -v
// -run Budget shows it).
func Budget(t testing.TB, server string, tools []toolkit.Tool) {
	t.Helper()
	costs := Costs(t, tools)
	if len(costs) == 0 {
		t.Fatal("no tools")
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s tools/list: %-36s %6s %6s %6s %7s %6s %6s\n", server, "tool", "descr", "input", "output", "choose", "entry", "cover")
	var choose, entry, cover int
	for _, c := range costs {
		fmt.Fprintf(&sb, "%s tools/list: %-36s %6d %6d %6d %7d %6d %6d\n", server, c.Name, c.Description, c.Input, c.Output, c.Choose, c.Entry, c.Coverage)
		choose += c.Choose
		entry += c.Entry - c.Coverage
		cover += c.Coverage
		if c.Coverage > BudgetCoverage {
			t.Errorf("%s: %s's coverage properties are %d B, budget %d B: embed envelope.Coverage as it is", server, c.Name, c.Coverage, BudgetCoverage)
		}
	}
	n := len(costs)
	fmt.Fprintf(&sb, "%s tools/list: %d tools, %d B total (~%d tokens); per tool: choose %d B (budget %d), entry %d B without coverage (budget %d); coverage %d B in all",
		server, n, entry+cover, (entry+cover)/4, choose/n, BudgetChoose, entry/n, BudgetEntry, cover)
	t.Log(sb.String())
	if choose/n > BudgetChoose {
		t.Errorf("%s: name+description+input schema average %d B per tool, budget %d B", server, choose/n, BudgetChoose)
	}
	if entry/n > BudgetEntry {
		t.Errorf("%s: tools/list entries average %d B per tool, budget %d B", server, entry/n, BudgetEntry)
	}
}
