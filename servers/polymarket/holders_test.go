package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestHoldersNameTheirOutcome: each group carries its outcome's name and
// index from its token (the market's outcomes), so a group nobody holds is
// still labelled right; a full page is capped (the largest holders only),
// a mixed-case condition id reads the same market.
func TestHoldersNameTheirOutcome(t *testing.T) {
	s := start(t, opts{})
	for _, tc := range []struct {
		name       string
		market     int
		limit      int
		upper      bool
		wantHeld   [2]int
		wantReason envelope.Reason // "" = complete
	}{
		{"both outcomes held, all listed", 3, 10, false, [2]int{3, 3}, ""},
		{"a page of the largest is capped", 3, 2, false, [2]int{2, 2}, envelope.Capped},
		{"the No side held by nobody", fake.NobodyHoldsNo, 10, false, [2]int{3, 0}, ""},
		{"mixed-case condition id", 3, 10, true, [2]int{3, 3}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, _, cond, _ := s.fake.Market(tc.market)
			m := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": id}).Market
			if tc.upper {
				cond = "0x" + strings.ToUpper(cond[2:])
			}
			out := call[tools.HoldersOut](t, s, "get_top_holders", map[string]any{"condition_id": cond, "limit": tc.limit})
			if len(out.Outcomes) != 2 || len(m.Outcomes) != 2 {
				t.Fatalf("%+v", out)
			}
			for i, g := range out.Outcomes {
				if g.Index != int64(i) || g.Outcome != m.Outcomes[i].Name || g.Outcome == "" || g.Holders != tc.wantHeld[i] {
					t.Fatalf("group %d: %+v, market outcomes %+v", i, g, m.Outcomes)
				}
			}
			if tc.wantReason == "" && (!out.Complete || out.Incomplete != nil) ||
				tc.wantReason != "" && (out.Complete || out.Incomplete == nil || out.Incomplete.Reason != tc.wantReason) {
				t.Fatalf("coverage %+v", out.Coverage)
			}
			if len(out.ThirdParty) == 0 {
				t.Fatal("holder names are not marked third-party")
			}
		})
	}
}
