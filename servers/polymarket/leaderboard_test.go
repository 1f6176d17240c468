package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestLeaderboardToOffset1000: the Data API serves leaderboard offsets
// 0..1000 (docs.polymarket.com get-aggregated-builder-leaderboard), so a
// page may start at 1000; the page after it is past the cap and the result
// says so (capped), never a cursor to a refused offset.
func TestLeaderboardToOffset1000(t *testing.T) {
	s := start(t, opts{})
	const tool = "get_builder_leaderboard"
	for _, tc := range []struct {
		name       string
		offset     int
		limit      int
		firstRank  float64
		wantNext   bool
		wantReason envelope.Reason
	}{
		{"first page", 0, 25, 1, true, envelope.Paged},
		{"a page that leads to offset 1000", 975, 25, 976, true, envelope.Paged},
		{"the page at offset 1000", 1000, 25, 1001, false, envelope.Capped},
		{"last page of a short read", 1000, 50, 1001, false, envelope.Capped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"time_period": "ALL", "limit": tc.limit}
			if tc.offset > 0 {
				args["cursor"] = tools.OffsetCursor(tool, tc.offset)
			}
			out := call[tools.BuildersOut](t, s, tool, args)
			if len(out.Rows) == 0 || out.Rows[0][0] != tc.firstRank {
				t.Fatalf("rows from rank %v, want %v", out.Rows, tc.firstRank)
			}
			if (out.NextCursor != "") != tc.wantNext || out.Complete || out.Incomplete == nil || out.Incomplete.Reason != tc.wantReason {
				t.Fatalf("next %q, coverage %+v", out.NextCursor, out.Coverage)
			}
			if tc.wantNext {
				next := call[tools.BuildersOut](t, s, tool, map[string]any{"time_period": "ALL", "limit": tc.limit, "cursor": out.NextCursor})
				if len(next.Rows) == 0 || next.Rows[0][0] != tc.firstRank+float64(tc.limit) {
					t.Fatalf("cursor led to %v", next.Rows)
				}
			}
		})
	}
}
