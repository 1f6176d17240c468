package tools

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// DocsIn is fetch_chart_documentation's input.
type DocsIn struct {
	Section      string `json:"section,omitempty" mcp:"enum=indicators|parameters|exchanges|limits|all;default=all"`
	ForceRefresh bool   `json:"forceRefresh,omitempty" jsonschema:"bypass the 24 h cache"`
}

// DocsOut is what the docs say, and where the copy came from. The sections
// are typed as objects only: their shape is the docs' own (the text block
// carries it) and spelling it out cost 3.7 KB of every tools/list.
type DocsOut struct {
	Section    string                     `json:"-"` // the request's echo
	Source     string                     `json:"source" mcp:"enum=live|cache|stale|snapshot"`
	Stale      bool                       `json:"stale"`
	FetchedAt  string                     `json:"-"` // ageSeconds says it
	AgeSeconds int                        `json:"ageSeconds"`
	Note       string                     `json:"note,omitempty"`
	LastChange string                     `json:"lastChange,omitempty"`
	Indicators []docsparse.Indicator      `json:"indicators,omitempty" mcp:"type=object"`
	Drawings   []docsparse.Drawing        `json:"drawings,omitempty" mcp:"type=object"`
	Parameters *docsparse.Parameters      `json:"parameters,omitempty" mcp:"type=object"`
	Limits     []docsparse.PlanLimit      `json:"limits,omitempty" mcp:"type=object"`
	Exchanges  []docsparse.SymbolExchange `json:"exchanges,omitempty" mcp:"type=object"`
	Examples   []docsparse.Example        `json:"examples,omitempty" mcp:"type=object"`
}

func (s *Service) fetchDocsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "fetch_chart_documentation", Title: "Chart-img docs", Toolset: "docs",
		Description: `Read the chart-img API docs: indicators (input and override keys, types, defaults, bounds), request fields and values, timezones, plan limits, symbol tables, examples.
Use before naming studies by hand. Cached 24 h; on a failed fetch the last good copy (stale) or the embedded one (snapshot).`,
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
