package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// Tools holds what the tools share: the user-rules store and the
// deployment's default chart settings.
type Tools struct {
	store    *rules.Store
	settings astro.Config
	natal    natalMemo
	// clock is the server's clock (serve.Registry.Clock), read for "now"
	// where a seed request leaves the period out.
	clock clock.Clock
}

// WithSettings makes a deployment's settings JSON (ZIWEI_SETTINGS, iztro's
// astro.config names) the default of initialize_chart; "" keeps iztro's
// defaults. Invalid settings are an error naming the fix.
func (t *Tools) WithSettings(raw string) error {
	if strings.TrimSpace(raw) == "" {
		t.settings = astro.Config{}
		return nil
	}
	cfg, err := settings.Parse([]byte(raw))
	if err != nil {
		return fmt.Errorf("ZIWEI_SETTINGS: %w", err)
	}
	t.settings = cfg
	return nil
}

// New returns the tool set with the default rule quotas; rulesFile may be ""
// (storing is then refused).
func New(rulesFile string) *Tools { return NewWithStore(rules.NewStore(rulesFile)) }

// NewWithStore returns the tool set on a configured rules store.
func NewWithStore(s *rules.Store) *Tools {
	t := &Tools{store: s}
	t.natal.m.Max = natalMemoMax
	return t
}

// All returns every tool in a stable order.
func (t *Tools) All() []toolkit.Tool {
	return []toolkit.Tool{
		t.initializeChart(), getChartBasics(), getPalaceInfo(), getStarsInPalace(), getStarAttributes(), getNatalSihua(),
		getSanfangSizheng(), getAnhePalace(), getChongzhaoPalace(), getJiaGongInfo(),
		getDecadeInfo(), getDecadeSihua(), getDecadeOverlappingPalaces(),
		getAnnualInfo(), getAnnualSihua(), getAnnualOverlappingPalaces(), t.getPalaceStemSihua(),
		getMonthlyInfo(), getDailyInfo(), getHourlyInfo(),
		queryPattern(), t.queryCombination(), t.storeCombination(), t.deleteCombination(),
	}
}

// Register adds the tools, the resources and the prompt.
func (t *Tools) Register(ctx context.Context, r *serve.Registry) error {
	t.clock = r.Clock
	r.AddTools(t.All()...)
	r.AddAliases(seedAliases(t.now)...)
	addResources(r)
	t.addPrompts(r)
	return nil
}

// chinaTime is the zone of the charts' clock times (UTC+8, China standard
// time): "today" is the date there.
var chinaTime = time.FixedZone("UTC+8", 8*3600)

// now is the server's date in China standard time (the system clock when
// the tools run outside a registry).
func (t *Tools) now() astro.Date {
	var c clock.Clock = clock.System{}
	if t.clock != nil {
		c = t.clock
	}
	n := c.Now().In(chinaTime)
	return astro.Date{Year: n.Year(), Month: int(n.Month()), Day: n.Day()}
}
