package tools

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// DocsIn is fetch_chart_documentation's input.
type DocsIn struct {
	Section      string `json:"section,omitempty" jsonschema:"what to return" mcp:"enum=indicators|parameters|exchanges|limits|all;default=all"`
	ForceRefresh bool   `json:"forceRefresh,omitempty" jsonschema:"fetch the docs site now instead of using the 24 h cache"`
}

// DocsOut is what the docs say, and where the copy came from.
type DocsOut struct {
	Section    string                     `json:"section"`
	Source     string                     `json:"source" jsonschema:"live (fetched now), cache (fresh copy), stale (fetch failed: last good copy), snapshot (embedded copy)" mcp:"enum=live|cache|stale|snapshot"`
	Stale      bool                       `json:"stale"`
	FetchedAt  string                     `json:"fetchedAt,omitempty"`
	AgeSeconds int                        `json:"ageSeconds"`
	Note       string                     `json:"note,omitempty"`
	LastChange string                     `json:"lastChange,omitempty" jsonschema:"newest Recent Changes date in the docs"`
	Indicators []docsparse.Indicator      `json:"indicators,omitempty" jsonschema:"studies[].name values and their input keys"`
	Drawings   []docsparse.Drawing        `json:"drawings,omitempty"`
	Parameters *docsparse.Parameters      `json:"parameters,omitempty" jsonschema:"intervals, ranges, themes, styles, formats and the request body fields"`
	Limits     []docsparse.PlanLimit      `json:"limits,omitempty" jsonschema:"per-plan rate, resolution, storage and studies+drawings limits"`
	Exchanges  []docsparse.SymbolExchange `json:"exchanges,omitempty" jsonschema:"the docs' TradingView symbol tables"`
	Examples   []docsparse.Example        `json:"examples,omitempty"`
}

func (s *Service) fetchDocsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "fetch_chart_documentation", Title: "Fetch chart-img documentation", Toolset: "docs",
		Description: `Read the chart-img API docs: indicator display names with their input keys, types, defaults and bounds; intervals, ranges, themes, styles; per-plan limits; symbol tables; examples.
Use it before writing studies[] by hand or when validate_chart_config rejects a name. Cached 24 h; on a failed fetch the last good copy is served (source=stale), and offline the embedded copy (source=snapshot). section narrows the answer (all is ~40 KB, indicators ~30 KB).
Related: construct_chart_config builds configs from these facts; validate_chart_config checks against them.`,
		Hints: toolkit.RemoteRead},
		func(ctx context.Context, in DocsIn) (DocsOut, error) {
			if in.Section == "" {
				in.Section = "all"
			}
			r := s.loadDocs(ctx, in.ForceRefresh)
			d := r.docs
			out := DocsOut{Section: in.Section, Source: r.source, Stale: r.source == "stale" || r.source == "snapshot",
				AgeSeconds: int(r.age.Seconds()), Note: r.note, LastChange: d.LastChange}
			if !r.fetchedAt.IsZero() {
				out.FetchedAt = r.fetchedAt.UTC().Format(time.RFC3339)
			}
			all := in.Section == "all"
			if all || in.Section == "indicators" {
				out.Indicators, out.Drawings = d.Indicators, d.Drawings
			}
			if all || in.Section == "parameters" {
				p := d.Parameters
				out.Parameters = &p
				out.Examples = d.Examples
			}
			if all || in.Section == "limits" {
				out.Limits = d.Limits
			}
			if all || in.Section == "exchanges" {
				out.Exchanges = d.Exchanges
			}
			return out, nil
		})
}
