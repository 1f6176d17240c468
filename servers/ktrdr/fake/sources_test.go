package fake

import (
	"regexp"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestEveryAnswerCitesItsSource: every function that writes a backend answer
// names its source in a comment — a backend file, another public source, or an honest
// "assumed"/"inferred" (listed in the README).
func TestEveryAnswerCitesItsSource(t *testing.T) {
	servetest.FakeCitesSources(t, ".", regexp.MustCompile(`ktrdr/|source: |FastAPI|Starlette|assumed|inferred|test-control`),
		"writeJSON", "detail", "validation", "successFalse", "envelopeError")
}
