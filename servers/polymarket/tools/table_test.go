package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// TestTableColumns: a table tool's output schema names its columns in the
// cols description, and that list must be what Tabulate writes (a renamed or
// reordered row field would otherwise leave the schema lying to the model).
func TestTableColumns(t *testing.T) {
	schemas := map[string]json.RawMessage{}
	for _, tl := range all() {
		b, err := json.Marshal(tl.Tool)
		if err != nil {
			t.Fatal(err)
		}
		schemas[tl.Name()] = b
	}
	for _, tc := range []struct {
		tool string
		cols []string
	}{
		{"get_top_holders", toolkit.Columns[HolderRow]()},
		{"get_builder_leaderboard", toolkit.Columns[BuilderRow]()},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var entry struct {
				OutputSchema struct {
					Properties struct {
						Cols struct {
							Description string `json:"description"`
						} `json:"cols"`
					} `json:"properties"`
				} `json:"outputSchema"`
			}
			if err := json.Unmarshal(schemas[tc.tool], &entry); err != nil {
				t.Fatalf("%s: %v", tc.tool, err)
			}
			if got, want := entry.OutputSchema.Properties.Cols.Description, strings.Join(tc.cols, ","); got != want {
				t.Errorf("%s: schema says cols %q, rows are %q", tc.tool, got, want)
			}
		})
	}
}
