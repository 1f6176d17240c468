package tools

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// TestTableColumns checks each table's cols tag (what the output schema tells
// the model) against its row types: the brief columns, then "; detail adds"
// and the detail row's further columns. Units in parentheses are ignored.
func TestTableColumns(t *testing.T) {
	cases := []struct {
		out           reflect.Type
		brief, detail []string
	}{
		{reflect.TypeFor[opList](), toolkit.Columns[opRow](), toolkit.Columns[opDetailRow]()},
		{reflect.TypeFor[modelsOut](), toolkit.Columns[modelRow](), toolkit.Columns[modelDetailRow]()},
	}
	unit := regexp.MustCompile(` \([^)]*\)`)
	for _, tc := range cases {
		f, _ := tc.out.FieldByName("Cols")
		tag := unit.ReplaceAllString(f.Tag.Get("jsonschema"), "")
		if !reflect.DeepEqual(tc.detail[:len(tc.brief)], tc.brief) {
			t.Errorf("%s: detail columns %v must start with the brief ones %v", tc.out, tc.detail, tc.brief)
		}
		want := strings.Join(tc.brief, ",") + "; detail adds " + strings.Join(tc.detail[len(tc.brief):], ",")
		if tag != want {
			t.Errorf("%s: cols tag %q, row types say %q", tc.out, tag, want)
		}
	}
}
