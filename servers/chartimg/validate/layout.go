package validate

import (
	"math"
	"sort"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// The Shared Layout body (POST /v2/tradingview/layout-chart/{LAYOUT_ID} and
// …/layout-chart/storage/{LAYOUT_ID}), as doc.chart-img.com "TradingView
// Snapshot v2 › Shared Layout" documents it (newest public text capture:
// johnpaul-aquino/charttalk .docs/chart-img-raw-documentation): symbol and
// interval override the layout's own; width/height/format/watermark as for
// the advanced chart; resetZoom; zoomIn/zoomOut 1..25; moveLeft/moveRight
// 1..50, which replaced shiftLeft/shiftRight on May 22, 2025 (Recent
// Changes). Studies and drawings come from the layout itself, so the plan's
// studies+drawings limit does not apply; its resolution limit, watermark rule,
// rates and storage days do (Request Limit).
var layoutFields = map[string]bool{"symbol": true, "interval": true, "width": true, "height": true, "format": true,
	"resetZoom": true, "zoomIn": true, "zoomOut": true, "moveLeft": true, "moveRight": true,
	"watermark": true, "watermarkSize": true, "watermarkOpacity": true}

var layoutMisnamed = map[string]string{"shiftLeft": "moveLeft", "shiftRight": "moveRight",
	"studies":  "the layout's own studies (edit the layout on TradingView, or use generate_chart_image)",
	"drawings": "the layout's own drawings", "theme": "the layout's own theme", "style": "the layout's own style",
	"range": "zoomIn/zoomOut/moveLeft/moveRight (a layout has no range field)", "timezone": "the layout's own timezone"}

// ValidateLayout checks a Shared Layout body for plan.
func (v *Validator) ValidateLayout(cfg map[string]any, plan chart.Plan) Result {
	r := &run{v: v, plan: plan, res: Result{Errors: []Issue{}, Suggestions: []string{}}}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case layoutFields[k]:
		case layoutMisnamed[k] != "":
			r.err(k, "%q is not a Shared Layout field; use %s", k, layoutMisnamed[k])
		default:
			r.err(k, "%q is not a Shared Layout field (symbol, interval, width, height, format, resetZoom, zoomIn, zoomOut, moveLeft, moveRight, watermark, watermarkSize, watermarkOpacity)", k)
		}
	}
	if _, ok := cfg["symbol"]; ok {
		r.symbol(cfg)
	}
	r.enum(cfg, "interval", v.list(v.docs.Parameters.Intervals, chart.Intervals))
	r.enum(cfg, "format", v.list(v.docs.Parameters.Formats, chart.Formats))
	w, h := r.size(cfg)
	r.watermark(cfg)
	if x, ok := cfg["resetZoom"]; ok {
		if _, isBool := x.(bool); !isBool {
			r.err("resetZoom", "resetZoom must be true or false")
		}
	}
	for _, f := range []struct {
		key string
		max float64
	}{{"zoomIn", 25}, {"zoomOut", 25}, {"moveLeft", 50}, {"moveRight", 50}} {
		if x, ok := cfg[f.key]; ok {
			if n, isNum := x.(float64); !isNum || n != math.Trunc(n) || n < 1 || n > f.max {
				r.err(f.key, "%s must be a whole number 1..%g", f.key, f.max)
			}
		}
	}
	if _, in := cfg["zoomIn"]; in {
		if _, out := cfg["zoomOut"]; out {
			r.warn("zoomOut", "zoomIn and zoomOut both set; chart-img does not document which wins")
		}
	}
	r.limits(w, h, 0)
	r.res.Valid = true
	for _, e := range r.res.Errors {
		if e.Severity == "error" {
			r.res.Valid = false
		}
	}
	return r.res
}
