// Package validate checks a chart-img v2 request body against the documented
// value sets and the plan's limits before it spends quota: required fields and
// formats, intervals, ranges, styles, study names and their inputs, drawings'
// required inputs, resolution and the combined studies+drawings count.
package validate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // timezone names are checked without relying on the host's zoneinfo

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
)

// Issue is one finding; severity "error" makes the config invalid.
type Issue struct {
	Field    string `json:"field"`
	Message  string `json:"message"`
	Severity string `json:"severity" mcp:"enum=error|warning"`
}

// ResolutionCheck is the size against the plan: the figures a program reads,
// and a sentence for the model. Max* are the plan's (the largest plan's when
// the plan is unknown); MinimumPlan is the smallest plan that allows the size.
type ResolutionCheck struct {
	Pass        bool   `json:"pass"`
	Message     string `json:"message"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	MaxWidth    int    `json:"maxWidth"`
	MaxHeight   int    `json:"maxHeight"`
	MinimumPlan string `json:"minimumPlan"`
}

// ParametersCheck is studies[] + drawings[] (Used) against the plan's combined
// limit (Allowed; the largest plan's when the plan is unknown).
type ParametersCheck struct {
	Pass        bool   `json:"pass"`
	Message     string `json:"message"`
	Used        int    `json:"used"`
	Allowed     int    `json:"allowed"`
	MinimumPlan string `json:"minimumPlan"`
}

// RateLimitCheck compares the config with the plan.
type RateLimitCheck struct {
	Plan              string          `json:"plan" jsonschema:"the plan checked, or unknown (CHART_IMG_PLAN not set): limits are warnings then"`
	WithinLimits      bool            `json:"withinLimits"`
	Resolution        ResolutionCheck `json:"resolution"`
	Parameters        ParametersCheck `json:"parameters" jsonschema:"studies[] + drawings[] against the plan's combined limit"`
	RequestsPerSecond int             `json:"requestsPerSecond"`
	DailyMax          int             `json:"dailyMax"`
	StorageDays       int             `json:"storageDays"`
}

// Result is validate_chart_config's answer.
type Result struct {
	Valid          bool           `json:"valid"`
	Errors         []Issue        `json:"errors"`
	Suggestions    []string       `json:"suggestions"`
	RateLimitCheck RateLimitCheck `json:"rateLimitCheck" mcp:"type=object"`
}

// Validator holds the docs and the alias table.
type Validator struct {
	docs  *docsparse.Docs
	nl    *nl.Builder
	zones []string // the docs' supported timezones, in their order
}

// New makes a validator over one copy of the docs.
func New(d *docsparse.Docs, b *nl.Builder) *Validator {
	v := &Validator{docs: d, nl: b}
	for _, z := range d.Parameters.Timezones {
		v.zones = append(v.zones, z.Name)
	}
	return v
}

type run struct {
	v    *Validator
	res  Result
	plan chart.Plan
}

func (r *run) err(field, f string, a ...any) {
	r.res.Errors = append(r.res.Errors, Issue{field, fmt.Sprintf(f, a...), "error"})
}
func (r *run) warn(field, f string, a ...any) {
	r.res.Errors = append(r.res.Errors, Issue{field, fmt.Sprintf(f, a...), "warning"})
}
func (r *run) suggest(f string, a ...any) {
	r.res.Suggestions = append(r.res.Suggestions, fmt.Sprintf(f, a...))
}

// exchangeFor is EXCHANGE:SYMBOL for a bare ticker or name as
// construct_chart_config would chart it, or "".
func (v *Validator) exchangeFor(ticker string) string {
	if v.nl == nil {
		return ""
	}
	return v.nl.Build(nl.Request{Symbol: ticker}).Config.Symbol
}

// Plan resolves a plan name against the docs' limits (falling back to the built-in table).
func (v *Validator) Plan(name string) (chart.Plan, bool) {
	p, ok := chart.PlanByName(name)
	if !ok {
		return p, false
	}
	if l, ok := v.docs.Limit(p.Name); ok && l.MaxWidth > 0 {
		p.PerSecond, p.DailyMax, p.MaxWidth, p.MaxHeight = l.PerSecond, l.DailyMax, l.MaxWidth, l.MaxHeight
		if l.Burst > 0 {
			p.Burst = l.Burst
		}
		if l.StorageDays > 0 {
			p.StorageDays = l.StorageDays
		}
		if l.MaxParameters > 0 {
			p.MaxParameters = l.MaxParameters
		}
		p.CustomMark = l.CustomMark
	}
	return p, true
}

var topLevel = map[string]bool{"symbol": true, "interval": true, "range": true, "width": true, "height": true,
	"style": true, "theme": true, "scale": true, "session": true, "timezone": true, "format": true, "override": true,
	"studies": true, "drawings": true, "shiftLeft": true, "shiftRight": true, "watermark": true,
	"watermarkSize": true, "watermarkOpacity": true}

var misnamed = map[string]string{"indicators": "studies", "study": "studies", "drawing": "drawings",
	"resolution": "width and height", "size": "width and height", "timeframe": "interval", "period": "range",
	"exchange": "symbol (EXCHANGE:SYMBOL)", "type": "style", "chartType": "style", "chart_type": "style"}

// Validate checks cfg (a decoded JSON object) for plan.
func (v *Validator) Validate(cfg map[string]any, plan chart.Plan) Result {
	r := &run{v: v, plan: plan, res: Result{Errors: []Issue{}, Suggestions: []string{}}}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !topLevel[k] {
			if to, ok := misnamed[k]; ok {
				r.err(k, "%q is not a chart-img field; use %s", k, to)
			} else {
				r.warn(k, "%q is not a documented field; the API ignores or rejects it", k)
			}
		}
	}
	r.symbol(cfg)
	r.enum(cfg, "interval", v.list(v.docs.Parameters.Intervals, chart.Intervals))
	r.rangeField(cfg)
	r.enum(cfg, "style", v.list(v.docs.Parameters.Styles, chart.Styles))
	r.enum(cfg, "theme", v.list(v.docs.Parameters.Themes, chart.Themes))
	r.enum(cfg, "scale", v.list(v.docs.Parameters.Scales, chart.Scales))
	r.enum(cfg, "session", v.list(v.docs.Parameters.Sessions, chart.Sessions))
	r.enum(cfg, "format", v.list(v.docs.Parameters.Formats, chart.Formats))
	r.timezone(cfg)
	w, h := r.size(cfg)
	n := r.studies(cfg) + r.drawings(cfg)
	r.override(cfg)
	r.watermark(cfg)
	for _, k := range []string{"shiftLeft", "shiftRight"} {
		if x, ok := cfg[k]; ok {
			if f, ok := x.(float64); !ok || f != math.Trunc(f) || f < 1 || f > 1000 {
				r.err(k, "%s must be a whole number 1..1000", k)
			}
		}
	}
	r.bars(cfg)
	r.limits(w, h, n)
	r.res.Valid = true
	for _, e := range r.res.Errors {
		if e.Severity == "error" {
			r.res.Valid = false
		}
	}
	return r.res
}

func (v *Validator) list(parsed, fallback []string) []string {
	if len(parsed) > 0 {
		return parsed
	}
	return fallback
}

func (r *run) symbol(cfg map[string]any) {
	x, ok := cfg["symbol"]
	if !ok {
		r.warn("symbol", "symbol is missing; the API then draws BINANCE:BTCUSDT")
		r.suggest("set symbol as EXCHANGE:SYMBOL (construct_chart_config resolves names like \"Apple\" or \"bitcoin\")")
		return
	}
	s, ok := x.(string)
	switch {
	case !ok:
		r.err("symbol", "symbol must be a string EXCHANGE:SYMBOL")
	case chart.ValidSymbol(s):
	case chart.ValidSymbol(strings.ToUpper(s)):
		r.err("symbol", "symbol %q must be upper case: %s", s, strings.ToUpper(s))
	case !strings.Contains(s, ":"):
		// the exchange the NL builder reads for this ticker (BTCUSDT is a
		// Binance pair, AAPL a Nasdaq stock); none when it knows no exchange
		if full := r.v.exchangeFor(s); full != "" {
			r.err("symbol", "symbol %q lacks the exchange; use EXCHANGE:SYMBOL, e.g. %s", s, full)
			r.suggest("use symbol %s, or get_symbols to find it on another exchange", full)
		} else {
			r.err("symbol", "symbol %q lacks the exchange; use EXCHANGE:SYMBOL (no known exchange lists %s)", s, strings.ToUpper(s))
			r.suggest("get_exchanges lists exchange ids and get_symbols finds a symbol on one")
		}
	default:
		r.err("symbol", "symbol %q is not EXCHANGE:SYMBOL (or a formula of them such as (NASDAQ:MARA+NASDAQ:RIOT)/2)", s)
	}
}

func (r *run) enum(cfg map[string]any, field string, set []string) {
	x, ok := cfg[field]
	if !ok {
		return
	}
	s, ok := x.(string)
	if !ok {
		r.err(field, "%s must be a string, one of %s", field, strings.Join(set, ", "))
		return
	}
	if chart.Contains(set, s) {
		return
	}
	if right, ok := chart.Fold(set, s); ok {
		r.err(field, "%s %q is case-sensitive: use %q", field, s, right)
		return
	}
	r.err(field, "%s %q is not supported; use one of %s", field, s, strings.Join(set, ", "))
	if field == "interval" && len(s) >= 2 {
		if m, ok := chart.IntervalMinutes(strings.ToUpper(s[:len(s)-1]) + s[len(s)-1:]); ok {
			r.suggest("nearest supported interval to %s: %s", s, nearestInterval(set, m))
		}
	}
}

func nearestInterval(set []string, minutes int) string {
	best, bd := set[0], math.MaxFloat64
	for _, iv := range set {
		m, _ := chart.IntervalMinutes(iv)
		if d := math.Abs(float64(m - minutes)); d < bd {
			best, bd = iv, d
		}
	}
	return best
}

func (r *run) rangeField(cfg map[string]any) {
	x, ok := cfg["range"]
	if !ok {
		return
	}
	ranges := r.v.list(r.v.docs.Parameters.Ranges, chart.Ranges)
	switch v := x.(type) {
	case string:
		if chart.Contains(ranges, v) {
			return
		}
		if right, ok := chart.Fold(ranges, v); ok {
			r.err("range", "range %q is case-sensitive: use %q", v, right)
			return
		}
		r.err("range", "range %q is not supported; use one of %s, or {\"from\",\"to\"} ISO 8601", v, strings.Join(ranges, ", "))
		if strings.EqualFold(v, "7D") || strings.EqualFold(v, "1W") {
			r.suggest("for a week use range 5D (five trading days) or an explicit {from,to}")
		}
	case map[string]any:
		from, okf := v["from"].(string)
		to, okt := v["to"].(string)
		if !okf || !okt {
			r.err("range", "range object needs both from and to as ISO 8601 strings")
			return
		}
		tf, errf := time.Parse(time.RFC3339, from)
		tt, errt := time.Parse(time.RFC3339, to)
		if errf != nil {
			r.err("range.from", "range.from %q is not ISO 8601 (e.g. 2024-01-31T00:00:00Z)", from)
		}
		if errt != nil {
			r.err("range.to", "range.to %q is not ISO 8601 (e.g. 2024-03-31T00:00:00Z)", to)
		}
		if errf == nil && errt == nil && !tf.Before(tt) {
			r.err("range", "range.from must be before range.to")
		}
	default:
		r.err("range", "range must be a string (%s) or {from,to}", strings.Join(ranges, ", "))
	}
}

func (r *run) timezone(cfg map[string]any) {
	x, ok := cfg["timezone"]
	if !ok {
		return
	}
	s, ok := x.(string)
	if !ok || s == "" {
		r.err("timezone", "timezone must be an IANA name such as America/New_York or Etc/UTC")
		return
	}
	listed := r.v.zones
	if len(listed) == 0 { // a docs page without the list: any IANA name
		if _, err := time.LoadLocation(s); err != nil || s == "Local" {
			r.err("timezone", "timezone %q is not an IANA name; use e.g. America/New_York, Europe/London, Etc/UTC", s)
		}
		return
	}
	if s == chart.DefaultTimezone || slices.Contains(listed, s) {
		return
	}
	// The docs' "Supported Timezone" table is a closed list: a zone off it
	// (America/Denver, where the list has US/Mountain) is refused with the
	// listed zone on the same clock.
	near, exact, ok := chart.NearestTimezone(listed, s)
	switch {
	case ok && exact:
		r.err("timezone", "timezone %q is not on chart-img's list of supported timezones; use %s (the same clock all year)", s, near)
		r.suggest("timezone %s instead of %s", near, s)
	case ok:
		r.err("timezone", "timezone %q is not on chart-img's list of supported timezones and no listed zone keeps its clock all year; the nearest is %s", s, near)
		r.suggest("timezone %s instead of %s (fetch_chart_documentation section parameters lists the %d zones)", near, s, len(listed))
	default:
		r.err("timezone", "timezone %q is not a timezone on chart-img's list; use a listed name such as America/New_York, Europe/London, Asia/Tokyo or %s (fetch_chart_documentation section parameters lists the %d zones)", s, chart.DefaultTimezone, len(listed))
	}
}

func intField(cfg map[string]any, field string) (int, bool, bool) {
	x, present := cfg[field]
	if !present {
		return 0, false, true
	}
	f, ok := x.(float64)
	if !ok || f != math.Trunc(f) {
		return 0, true, false
	}
	return int(f), true, true
}

func (r *run) size(cfg map[string]any) (int, int) {
	w, wp, wok := intField(cfg, "width")
	h, hp, hok := intField(cfg, "height")
	if !wok {
		r.err("width", "width must be a whole number of pixels")
	}
	if !hok {
		r.err("height", "height must be a whole number of pixels")
	}
	if !wp || !wok {
		w = chart.DefaultWidth
	}
	if !hp || !hok {
		h = chart.DefaultHeight
	}
	if wp && wok && w < chart.MinWidth {
		r.err("width", "width %d is below the minimum %d", w, chart.MinWidth)
	}
	if hp && hok && h < chart.MinHeight {
		r.err("height", "height %d is below the minimum %d", h, chart.MinHeight)
	}
	return w, h
}

func (r *run) studies(cfg map[string]any) int {
	x, ok := cfg["studies"]
	if !ok || x == nil {
		return 0
	}
	list, ok := x.([]any)
	if !ok {
		r.err("studies", "studies must be an array of {name, input?, override?, forceOverlay?}")
		return 0
	}
	for i, e := range list {
		f := fmt.Sprintf("studies[%d]", i)
		st, ok := e.(map[string]any)
		if !ok {
			r.err(f, "%s must be an object {name, input?}", f)
			continue
		}
		for k := range st {
			switch k {
			case "name", "input", "override", "forceOverlay":
			case "inputs":
				r.err(f+".inputs", "the key is input (singular), not inputs")
			default:
				r.warn(f+"."+k, "%q is not a study field (name, input, override, forceOverlay)", k)
			}
		}
		name, _ := st["name"].(string)
		if name == "" {
			r.err(f+".name", "%s.name is required: a documented indicator display name", f)
			continue
		}
		ind, ok := r.v.docs.Indicator(name)
		if !ok {
			r.unknownStudy(f, name)
			continue
		}
		if fo, ok := st["forceOverlay"]; ok {
			if _, isBool := fo.(bool); !isBool {
				r.err(f+".forceOverlay", "forceOverlay must be true or false")
			}
		}
		if ov, ok := st["override"]; ok {
			if m, isObj := ov.(map[string]any); !isObj {
				r.err(f+".override", "override must be an object such as {\"Plot.color\": \"rgb(33,150,243)\"}")
			} else if len(ind.Overrides) > 0 {
				r.overrideKeys(f, ind, m)
			}
		}
		in, ok := st["input"]
		if !ok {
			continue
		}
		m, ok := in.(map[string]any)
		if !ok {
			r.err(f+".input", "input must be an object keyed %s", inputKeys(ind.Inputs))
			continue
		}
		r.inputs(f+".input", ind.Name, ind.Inputs, m, false)
	}
	return len(list)
}

func (r *run) unknownStudy(f, name string) {
	if ind, ok := r.v.docs.IndicatorFold(name); ok {
		r.err(f+".name", "study %q must be spelled exactly %q", name, ind.Name)
		return
	}
	if real, ok := r.v.nl.IndicatorAlias(name); ok {
		r.err(f+".name", "study %q is not a display name; use %q", name, real)
		if strings.Contains(name, "@") {
			r.suggest("chart-img v2 uses TradingView display names (\"Bollinger Bands\"), not \"…@tv-basicstudies\" widget ids")
		}
		return
	}
	r.err(f+".name", "study %q is not in the documented indicator list", name)
	r.suggest("fetch_chart_documentation with section=indicators lists the %d display names and their inputs", len(r.v.docs.Indicators))
}

func inputKeys(ins []docsparse.Input) string {
	if len(ins) == 0 {
		return "(this one takes no inputs)"
	}
	ks := make([]string, len(ins))
	for i, in := range ins {
		ks[i] = in.Key
	}
	return strings.Join(ks, ", ")
}

func (r *run) inputs(f, name string, spec []docsparse.Input, m map[string]any, drawing bool) {
	byKey := make(map[string]docsparse.Input, len(spec))
	for _, in := range spec {
		byKey[in.Key] = in
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		in, ok := byKey[k]
		if !ok {
			r.err(f+"."+k, "%s has no input %q; its inputs are %s", name, k, inputKeys(spec))
			continue
		}
		r.value(f+"."+k, name, in, m[k])
	}
	if drawing {
		for _, in := range spec {
			if _, ok := m[in.Key]; in.Required && !ok {
				r.err(f+"."+in.Key, "%s needs input %s (%s)", name, in.Key, in.Type)
			}
		}
	}
}

func (r *run) value(f, name string, in docsparse.Input, x any) {
	if p := in.Check(name, x); p != "" {
		r.err(f, "%s", p)
	}
}

func (r *run) drawings(cfg map[string]any) int {
	x, ok := cfg["drawings"]
	if !ok || x == nil {
		return 0
	}
	list, ok := x.([]any)
	if !ok {
		r.err("drawings", "drawings must be an array of {name, input, override?, zOrder?}")
		return 0
	}
	for i, e := range list {
		f := fmt.Sprintf("drawings[%d]", i)
		d, ok := e.(map[string]any)
		if !ok {
			r.err(f, "%s must be an object {name, input}", f)
			continue
		}
		name, _ := d["name"].(string)
		spec, ok := r.v.docs.Drawing(name)
		if !ok {
			r.err(f+".name", "drawing %q is not documented; use one of %s", name, strings.Join(chart.Drawings, ", "))
			continue
		}
		if z, ok := d["zOrder"]; ok && z != "top" && z != "bottom" {
			r.err(f+".zOrder", "zOrder must be top or bottom")
		}
		m, ok := d["input"].(map[string]any)
		if !ok {
			r.err(f+".input", "%s needs input {%s}", name, inputKeys(spec.Inputs))
			continue
		}
		r.inputs(f+".input", name, spec.Inputs, m, true)
	}
	return len(list)
}

var overrideKeys = map[string]bool{"style": true, "priceRange": true, "mainPaneHeight": true, "scalesFontSize": true,
	"showLegend": true, "showLegendValues": true, "showMainPane": true, "showPriceLine": true, "showVertGrid": true,
	"showHorzGrid": true, "showSeriesLastValue": true, "showSeriesOHLC": true, "showBarChange": true,
	"showStudyLastValue": true, "showStudyPlotNamesAction": true, "showSymbolLabelsAction": true,
	"showSymbolWatermark": true, "showInvertScale": true, "showInvertScaleStudies": true}

func (r *run) override(cfg map[string]any) {
	x, ok := cfg["override"]
	if !ok {
		return
	}
	m, ok := x.(map[string]any)
	if !ok {
		r.err("override", "override must be an object")
		return
	}
	for k, v := range m {
		switch {
		case !overrideKeys[k]:
			r.warn("override."+k, "%q is not a documented override key", k)
		case strings.HasPrefix(k, "show"):
			if _, ok := v.(bool); !ok {
				r.err("override."+k, "%s must be true or false", k)
			}
		case k == "mainPaneHeight":
			if f, ok := v.(float64); !ok || f < 100 || f > 1800 {
				r.err("override."+k, "mainPaneHeight must be 100..1800")
			}
		case k == "scalesFontSize":
			if f, ok := v.(float64); !ok || f < 10 || f > 50 {
				r.err("override."+k, "scalesFontSize must be 10..50")
			}
		}
	}
}

func (r *run) watermark(cfg map[string]any) {
	if _, ok := cfg["watermark"]; ok && r.plan.Name == "" {
		r.warn("watermark", "a custom watermark needs the ULTRA or ENTERPRISE plan; the plan is unknown (set %s to check it)", planEnv)
	} else if ok && !r.plan.CustomMark {
		r.err("watermark", "a custom watermark needs the ULTRA or ENTERPRISE plan (this is %s; if your key has a larger plan, set %s)", r.plan.Name, planEnv)
	}
	if x, ok := cfg["watermarkSize"]; ok {
		f, _ := x.(float64)
		if f != 16 && f != 32 && f != 64 && f != 128 {
			r.err("watermarkSize", "watermarkSize must be 16, 32, 64 or 128")
		}
	}
	if x, ok := cfg["watermarkOpacity"]; ok {
		if f, ok := x.(float64); !ok || f < 0.1 || f > 1 {
			r.err("watermarkOpacity", "watermarkOpacity must be 0.1..1.0")
		}
	}
}

func (r *run) bars(cfg map[string]any) {
	rng, _ := cfg["range"].(string)
	iv, _ := cfg["interval"].(string)
	if iv == "" {
		iv = "1D"
	}
	if m, ok := cfg["range"].(map[string]any); ok { // {from,to}: count the span itself
		from, _ := m["from"].(string)
		to, _ := m["to"].(string)
		tf, errf := time.Parse(time.RFC3339, from)
		tt, errt := time.Parse(time.RFC3339, to)
		mins, ok := chart.IntervalMinutes(iv)
		if errf == nil && errt == nil && ok && tt.After(tf) {
			if n := int(tt.Sub(tf).Minutes()) / mins; n > chart.MaxBars {
				r.warn("range", "%s bars from %s to %s are about %d; the API draws about %d, so the oldest part is cut", iv, from, to, n, chart.MaxBars)
			}
		}
		return
	}
	if n, ok := chart.Bars(rng, iv); ok && n > chart.MaxBars {
		r.warn("range", "%s over %s is about %d bars; the API draws about %d, so the oldest part is cut", iv, rng, n, chart.MaxBars)
		r.suggest("use a longer interval for %s, e.g. %s", rng, map[string]string{"1D": "5m", "5D": "15m", "1M": "1h", "3M": "4h",
			"6M": "4h", "1Y": "1D", "YTD": "1D", "5Y": "1W", "ALL": "1W", "MTD": "1h", "WTD": "15m", "DTD": "5m"}[rng])
	}
}

// planEnv names the setting that tells the server the key's plan.
const planEnv = "CHART_IMG_PLAN"

// Unknown is the RateLimitCheck.Plan of an unknown plan.
const Unknown = "unknown"

func (r *run) limits(w, h, n int) {
	if r.plan.Name == "" {
		r.unknownPlanLimits(w, h, n)
		return
	}
	p := r.plan
	c := &r.res.RateLimitCheck
	c.Plan, c.RequestsPerSecond, c.DailyMax, c.StorageDays = p.Name, p.PerSecond, p.DailyMax, p.StorageDays
	c.Resolution = ResolutionCheck{Pass: w <= p.MaxWidth && h <= p.MaxHeight,
		Message: fmt.Sprintf("%dx%d within %s's %dx%d", w, h, p.Name, p.MaxWidth, p.MaxHeight),
		Width:   w, Height: h, MaxWidth: p.MaxWidth, MaxHeight: p.MaxHeight, MinimumPlan: minimumPlan(w, h, 0)}
	if !c.Resolution.Pass {
		c.Resolution.Message = fmt.Sprintf("%dx%d exceeds %s's %dx%d (the API answers 403 Exceed Max Usage Resolution Limit (%dx%d); if your key has a larger plan, set %s)",
			w, h, p.Name, p.MaxWidth, p.MaxHeight, p.MaxWidth, p.MaxHeight, planEnv)
		r.err("width", "%s", c.Resolution.Message)
		if up, ok := chart.SmallestPlanFor(w, h, 0); ok {
			r.suggest("reduce to at most %dx%d, or use the %s plan or higher", p.MaxWidth, p.MaxHeight, up.Name)
		} else {
			r.suggest("no plan allows %dx%d; the largest is 2048x1920", w, h)
		}
	}
	c.Parameters = ParametersCheck{Pass: n <= p.MaxParameters, Message: fmt.Sprintf("%d studies+drawings within %s's %d", n, p.Name, p.MaxParameters),
		Used: n, Allowed: p.MaxParameters, MinimumPlan: minimumPlan(0, 0, n)}
	if !c.Parameters.Pass {
		c.Parameters.Message = fmt.Sprintf("%d studies+drawings exceed %s's combined limit of %d (the API answers 403 Exceed Max Usage Parameter Limit (%d); if your key has a larger plan, set %s)",
			n, p.Name, p.MaxParameters, p.MaxParameters, planEnv)
		r.err("studies", "%s", c.Parameters.Message)
		if up, ok := chart.SmallestPlanFor(0, 0, n); ok {
			r.suggest("drop to %d studies+drawings, or use the %s plan or higher", p.MaxParameters, up.Name)
		}
	}
	c.WithinLimits = c.Resolution.Pass && c.Parameters.Pass
}

// minimumPlan is the smallest plan allowing w x h and n studies+drawings, or "".
func minimumPlan(w, h, n int) string {
	if p, ok := chart.SmallestPlanFor(w, h, n); ok {
		return p.Name
	}
	return ""
}

// unknownPlanLimits checks against the largest plan (nothing can exceed it)
// and, below that, only warns which plans allow the config: chart-img does
// not tell a key's plan, so refusing on a guess would block paid keys.
func (r *run) unknownPlanLimits(w, h, n int) {
	top := chart.Plans[len(chart.Plans)-1]
	c := &r.res.RateLimitCheck
	c.Plan = Unknown
	c.Resolution = ResolutionCheck{Pass: w <= top.MaxWidth && h <= top.MaxHeight,
		Width: w, Height: h, MaxWidth: top.MaxWidth, MaxHeight: top.MaxHeight, MinimumPlan: minimumPlan(w, h, 0)}
	c.Parameters = ParametersCheck{Pass: n <= top.MaxParameters, Used: n, Allowed: top.MaxParameters, MinimumPlan: minimumPlan(0, 0, n)}
	if !c.Resolution.Pass {
		c.Resolution.Message = fmt.Sprintf("%dx%d exceeds every plan (the largest is %dx%d)", w, h, top.MaxWidth, top.MaxHeight)
		r.err("width", "%s", c.Resolution.Message)
	} else if p, _ := chart.SmallestPlanFor(w, h, 0); p.Name != chart.Plans[0].Name {
		c.Resolution.Message = fmt.Sprintf("%dx%d needs the %s plan or higher; the key's plan is unknown, so this is not checked (set %s)", w, h, p.Name, planEnv)
		r.warn("width", "%s", c.Resolution.Message)
	} else {
		c.Resolution.Message = fmt.Sprintf("%dx%d is within every plan", w, h)
	}
	if !c.Parameters.Pass {
		c.Parameters.Message = fmt.Sprintf("%d studies+drawings exceed every plan (the largest allows %d)", n, top.MaxParameters)
		r.err("studies", "%s", c.Parameters.Message)
	} else if p, _ := chart.SmallestPlanFor(0, 0, n); p.Name != chart.Plans[0].Name {
		c.Parameters.Message = fmt.Sprintf("%d studies+drawings need the %s plan or higher; the key's plan is unknown, so this is not checked (set %s)", n, p.Name, planEnv)
		r.warn("studies", "%s", c.Parameters.Message)
	} else {
		c.Parameters.Message = fmt.Sprintf("%d studies+drawings are within every plan", n)
	}
	c.WithinLimits = c.Resolution.Pass && c.Parameters.Pass
}

// overrideKeys warns about study override keys the docs' override table for
// the study does not list (a level is "UpperLimit.value", not "upper").
func (r *run) overrideKeys(f string, ind *docsparse.Indicator, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(ind.Overrides, func(o docsparse.Input) bool { return o.Key == k }) {
			var levels []string
			for _, l := range ind.Levels() {
				levels = append(levels, l.Key)
			}
			hint := ""
			if len(levels) > 0 {
				hint = "; its levels are " + strings.Join(levels, ", ")
			}
			r.warn(f+".override."+k, "%s has no documented override %q (fetch_chart_documentation section indicators lists its %d overrides)%s", ind.Name, k, len(ind.Overrides), hint)
		}
	}
}
