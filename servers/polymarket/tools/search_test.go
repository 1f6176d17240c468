package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// TestSearchCoverage: a search page says whether another exists, and the
// 100th page with more matching is capped without a cursor (the official
// SDK's MAX_SEARCH_PAGE).
func TestSearchCoverage(t *testing.T) {
	n := 4321
	for _, tc := range []struct {
		name       string
		pg         int
		more, cut  bool
		wantReason envelope.Reason // "" = complete
		wantNext   bool
	}{
		{"first of many", 1, true, true, envelope.Paged, true},
		{"page 99 leads to 100", 99, true, false, envelope.Paged, true},
		{"page 100 with more is capped", 100, true, false, envelope.Capped, false},
		{"last page, markets cut to the limit", 3, false, true, envelope.Truncated, false},
		{"last page, whole", 3, false, false, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cov, next := searchCoverage(tc.pg, tc.more, tc.cut, &n)
			if (next != "") != tc.wantNext {
				t.Fatalf("next %q", next)
			}
			if tc.wantReason == "" {
				if !cov.Complete || cov.Incomplete != nil {
					t.Fatalf("%+v", cov)
				}
				return
			}
			if cov.Complete || cov.Incomplete == nil || cov.Incomplete.Reason != tc.wantReason || cov.Incomplete.Cursor != next {
				t.Fatalf("%+v", cov)
			}
			if next != "" {
				c, err := decodeCursor("search_markets", next)
				if err != nil || c.Offset != tc.pg+1 {
					t.Fatalf("cursor %+v %v", c, err)
				}
			}
		})
	}
}
