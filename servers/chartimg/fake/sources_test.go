package fake

import (
	"regexp"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestEveryAnswerCitesItsSource: every function that writes a chart-img answer
// names its source in a comment — a section of chart-img's docs, another
// public source, or an honest "assumed"/"inferred" (listed in the README).
func TestEveryAnswerCitesItsSource(t *testing.T) {
	servetest.FakeCitesSources(t, ".", regexp.MustCompile(`docs ›|source: |assumed|inferred|test API|test-control`), "writeJSON", "msg")
}
