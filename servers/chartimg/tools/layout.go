package tools

import (
	"context"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// LayoutIn is generate_layout_chart's input: doc.chart-img.com "TradingView
// Snapshot v2 › Shared Layout" (LAYOUT_ID in the URL, the body's fields in
// config; validate.ValidateLayout lists them).
type LayoutIn struct {
	LayoutID string         `json:"layoutId" jsonschema:"from tradingview.com/chart/<id>/" mcp:"pattern=^[A-Za-z0-9]{1,32}$"`
	Config   map[string]any `json:"config,omitempty"`
	Storage  bool           `json:"storage,omitempty"`
}

func (s *Service) layoutTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "generate_layout_chart", Title: "Render TradingView layout", Toolset: "charts",
		Description: `Capture a TradingView layout with its own indicators (community, private scripts) as an image; storage: a public URL.
config: symbol interval width height format resetZoom zoomIn zoomOut moveLeft moveRight. Private layouts need TRADINGVIEW_SESSION_ID/_SIGN. Spends quota; up to 1 min.`,
		Hints: toolkit.Hints{ReadOnly: false, Destructive: false, Idempotent: true, OpenWorld: true}},
		func(ctx context.Context, in LayoutIn) (ImageOut, error) {
			cfg := in.Config
			if cfg == nil {
				cfg = map[string]any{}
			}
			plan, err := s.plan("")
			if err != nil {
				return ImageOut{}, err
			}
			res := s.current().validator.ValidateLayout(cfg, plan)
			if !res.Valid {
				return ImageOut{}, rejected(res, "the layout request would be rejected (%s) — no quota was spent")
			}
			if plan.Name == "" {
				plan.Name = validate.Unknown
			}
			out := ImageOut{Plan: plan.Name, GeneratedAt: time.Now().UTC().Format(time.RFC3339), Storage: in.Storage, layout: in.LayoutID}
			out.Symbol, _ = cfg["symbol"].(string) // "" = the layout's own
			out.Format, _ = cfg["format"].(string)
			if out.Format == "" {
				out.Format = "png"
			}
			out.MimeType = "image/" + out.Format
			ctx, quota := client.WithQuota(ctx)
			lr, err := s.c.Layout(ctx, in.LayoutID, cfg, in.Storage)
			if err != nil {
				return ImageOut{}, err
			}
			if in.Storage {
				out.URL, out.Expire, out.ETag, out.Bytes = lr.Stored.URL, lr.Stored.Expire, lr.Stored.ETag, lr.Stored.Size
				out.Width, out.Height = intOr(cfg["width"], chart.DefaultWidth), intOr(cfg["height"], chart.DefaultHeight)
			} else {
				img := lr.Image
				out.image, out.Bytes, out.MimeType, out.Width, out.Height = img.Bytes, len(img.Bytes), img.MIME, img.Width, img.Height
				out.Format = strings.TrimPrefix(img.MIME, "image/")
			}
			out.quota(quota)
			return out, nil
		})
}
