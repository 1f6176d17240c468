package servetest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TableColumns checks a table tool's published output schema: the
// description of its cols property must be the row columns, comma-separated
// (toolkit.Columns of the row type), or a renamed or reordered row field
// would leave the schema lying to the model.
func TableColumns(t testing.TB, tool mcp.Tool, cols []string) {
	t.Helper()
	var schema struct {
		Properties struct {
			Cols struct {
				Description string `json:"description"`
			} `json:"cols"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool.RawOutputSchema, &schema); err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	if got, want := schema.Properties.Cols.Description, strings.Join(cols, ","); got != want {
		t.Errorf("%s: schema says cols %q, rows are %q", tool.Name, got, want)
	}
}
