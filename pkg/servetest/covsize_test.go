package servetest

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

type coveredOut struct {
	envelope.Coverage
	N int `json:"n"`
}

// The result contract's schema fits BudgetCoverage and is what Costs counts
// apart: a tool without it counts none.
func TestCoverageCountedApart(t *testing.T) {
	with := toolkit.New(toolkit.Def{Name: "with", Description: "d", Hints: toolkit.LocalRead},
		func(ctx context.Context, in struct{}) (coveredOut, error) { return coveredOut{}, nil })
	without := toolkit.New(toolkit.Def{Name: "without", Description: "d", Hints: toolkit.LocalRead},
		func(ctx context.Context, in struct{}) (struct {
			N int `json:"n"`
		}, error) {
			return struct {
				N int `json:"n"`
			}{}, nil
		})
	c := Costs(t, []toolkit.Tool{with, without})
	if c[0].Coverage == 0 || c[0].Coverage > BudgetCoverage {
		t.Fatalf("coverage schema %d B, want 1..%d", c[0].Coverage, BudgetCoverage)
	}
	if c[1].Coverage != 0 {
		t.Fatalf("a tool without coverage counts %d B", c[1].Coverage)
	}
	if d := (c[0].Output - c[0].Coverage) - c[1].Output; d < -2 || d > 2 {
		t.Fatalf("output less coverage %d B, the same schema without it %d B", c[0].Output-c[0].Coverage, c[1].Output)
	}
}
