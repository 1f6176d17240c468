package servetest

import (
	"sort"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/metrics"
)

// MetricLabels is every "family{label=value}" the process's /metrics shows.
func MetricLabels(t testing.TB) map[string]bool {
	t.Helper()
	fams, err := metrics.Gather()
	if err != nil {
		t.Fatalf("gather metrics: %v", err)
	}
	out := map[string]bool{}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				out[f.GetName()+"{"+l.GetName()+"="+l.GetValue()+"}"] = true
			}
		}
	}
	return out
}

// BoundedLabels holds the promise that metric labels are bounded by
// construction (route names, tool names, codes — never an argument): it runs
// calls twice, each time with another unique token to put in the arguments
// (ids, names, queries), and fails when the second run shows a label value
// the first did not (a series per argument), or a token in any label.
func BoundedLabels(t testing.TB, calls func(unique string)) {
	t.Helper()
	first, second := "uqAlpha7341", "uqBravo9052"
	calls(first)
	before := MetricLabels(t)
	calls(second)
	after := MetricLabels(t)
	var bad []string
	for l := range after {
		lower := strings.ToLower(l)
		switch {
		case strings.Contains(lower, strings.ToLower(first)), strings.Contains(lower, strings.ToLower(second)):
			bad = append(bad, l+" (holds an argument)")
		case !before[l]:
			bad = append(bad, l+" (new with new arguments)")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("metric labels that grow with the arguments:\n  %s", strings.Join(bad, "\n  "))
	}
}
