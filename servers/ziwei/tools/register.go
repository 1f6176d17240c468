package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

// Tools holds what the tools share: the user-rules store.
type Tools struct {
	store *rules.Store
}

// New returns the tool set with the default rule quotas; rulesFile may be ""
// (storing is then refused).
func New(rulesFile string) *Tools { return &Tools{store: rules.NewStore(rulesFile)} }

// NewWithStore returns the tool set on a configured rules store.
func NewWithStore(s *rules.Store) *Tools { return &Tools{store: s} }

// All returns every tool in a stable order.
func (t *Tools) All() []toolkit.Tool {
	return []toolkit.Tool{
		t.initializeChart(), getChartBasics(), getPalaceInfo(), getStarsInPalace(), getStarAttributes(), getNatalSihua(),
		getSanfangSizheng(), getAnhePalace(), getChongzhaoPalace(), getJiaGongInfo(),
		getDecadeInfo(), getDecadeSihua(), getDecadeOverlappingPalaces(),
		getAnnualInfo(), getAnnualSihua(), getAnnualOverlappingPalaces(), getPalaceStemSihua(),
		getMonthlyInfo(), getDailyInfo(), getHourlyInfo(),
		queryPattern(), t.queryCombination(), t.storeCombination(), t.deleteCombination(),
	}
}

// Register adds the tools, the resources and the prompt.
func (t *Tools) Register(ctx context.Context, r *serve.Registry) error {
	r.AddTools(t.All()...)
	addResources(r)
	addPrompts(r)
	return nil
}
