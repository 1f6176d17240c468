// Package chart holds the chart-img v2 request body and the plan table: the facts
// every other package (NL builder, validator, client, fake) agrees on.
package chart

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Study is one entry of studies[]: a TradingView display name plus inputs keyed
// exactly as the docs give them (in_0… or named).
type Study struct {
	Name         string         `json:"name"`
	ForceOverlay *bool          `json:"forceOverlay,omitempty"`
	Input        map[string]any `json:"input,omitempty"`
	Override     map[string]any `json:"override,omitempty"`
}

// Drawing is one entry of drawings[].
type Drawing struct {
	Name     string         `json:"name"`
	Input    map[string]any `json:"input"`
	Override map[string]any `json:"override,omitempty"`
	ZOrder   string         `json:"zOrder,omitempty" mcp:"enum=top|bottom"`
}

// Config is the body of POST /v2/tradingview/advanced-chart. Range is a string
// (1D…YTD) or an object {from,to}; it is `any` because the API accepts both.
type Config struct {
	Symbol           string         `json:"symbol,omitempty"`
	Interval         string         `json:"interval,omitempty"`
	Range            any            `json:"range,omitempty" jsonschema:"1D…YTD or {from,to}" mcp:"type=string|object"`
	Width            int            `json:"width,omitempty"`
	Height           int            `json:"height,omitempty"`
	Style            string         `json:"style,omitempty"`
	Theme            string         `json:"theme,omitempty"`
	Scale            string         `json:"scale,omitempty"`
	Session          string         `json:"session,omitempty"`
	Timezone         string         `json:"timezone,omitempty"`
	Format           string         `json:"format,omitempty"`
	Override         map[string]any `json:"override,omitempty"`
	Studies          []Study        `json:"studies,omitempty"`
	Drawings         []Drawing      `json:"drawings,omitempty"`
	ShiftLeft        int            `json:"shiftLeft,omitempty"`
	ShiftRight       int            `json:"shiftRight,omitempty"`
	Watermark        string         `json:"watermark,omitempty"`
	WatermarkSize    int            `json:"watermarkSize,omitempty"`
	WatermarkOpacity float64        `json:"watermarkOpacity,omitempty"`
}

// Documented value sets (docs as of Nov 2025). The docs parser refreshes them from
// the live site; these are the fallback and the fake's truth.
var (
	Intervals = []string{"1m", "2m", "3m", "5m", "15m", "30m", "45m", "1h", "2h", "3h", "4h", "6h", "8h", "12h",
		"1D", "2D", "3D", "1W", "1M", "3M", "6M", "1Y"}
	Ranges   = []string{"1D", "5D", "1M", "3M", "6M", "1Y", "5Y", "ALL", "DTD", "WTD", "MTD", "YTD"}
	Styles   = []string{"bar", "candle", "line", "area", "heikinAshi", "hollowCandle", "baseline", "hiLo", "column"}
	Themes   = []string{"light", "dark"}
	Scales   = []string{"regular", "percent", "indexedTo100", "logarithmic"}
	Sessions = []string{"regular", "extended"}
	Formats  = []string{"png", "jpeg"}
	// WatermarkSizes are the allowed watermarkSize values.
	WatermarkSizes = []int{16, 32, 64, 128}
	// Drawings are the 15 documented drawing names.
	Drawings = []string{"Order Line", "Trend Line", "Horizontal Line", "Vertical Line", "Long Position",
		"Short Position", "Fib Retracement", "Date Range", "Date Price Range", "Rectangle", "Arrow Marker",
		"Arrow Mark Up", "Arrow Mark Down", "Text", "Callout"}
)

// Size limits that do not depend on the plan.
const (
	MinWidth      = 400
	MinHeight     = 300
	DefaultWidth  = 800
	DefaultHeight = 600
	MaxBars       = 1000 // the API renders about this many bars at most
)

// Plan is one row of the docs' request-limit tables.
type Plan struct {
	Name          string `json:"plan"`
	PerSecond     int    `json:"requestsPerSecond"`
	Burst         int    `json:"burst"`
	DailyMax      int    `json:"dailyMax"`
	MaxWidth      int    `json:"maxWidth"`
	MaxHeight     int    `json:"maxHeight"`
	Watermark     bool   `json:"watermark"`
	CustomMark    bool   `json:"customWatermark"`
	StorageDays   int    `json:"storageDays"`
	MaxParameters int    `json:"maxStudiesPlusDrawings"`
}

// Plans in ascending order (docs, Nov 2025). ENTERPRISE's "35+/50+/5,000+" are minimums.
var Plans = []Plan{
	{"BASIC", 1, 3, 50, 800, 600, true, false, 14, 3},
	{"PRO", 10, 15, 500, 1920, 1080, false, false, 30, 5},
	{"MEGA", 15, 25, 1000, 1920, 1600, false, false, 60, 10},
	{"ULTRA", 35, 50, 3000, 2048, 1920, false, true, 90, 25},
	{"ENTERPRISE", 35, 50, 5000, 2048, 1920, false, true, 120, 50},
}

// PlanNames lists the plan names in ascending order.
var PlanNames = []string{"BASIC", "PRO", "MEGA", "ULTRA", "ENTERPRISE"}

// PlanByName finds a plan case-insensitively.
func PlanByName(name string) (Plan, bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	for _, p := range Plans {
		if p.Name == n {
			return p, true
		}
	}
	return Plan{}, false
}

// SmallestPlanFor returns the cheapest plan that allows w×h and n studies+drawings.
func SmallestPlanFor(w, h, n int) (Plan, bool) {
	for _, p := range Plans {
		if w <= p.MaxWidth && h <= p.MaxHeight && n <= p.MaxParameters {
			return p, true
		}
	}
	return Plan{}, false
}

// Contains reports whether v is in set (exact match).
func Contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// Fold finds v in set ignoring case and returns the documented spelling.
func Fold(set []string, v string) (string, bool) {
	for _, s := range set {
		if strings.EqualFold(s, v) {
			return s, true
		}
	}
	return "", false
}

// IntervalMinutes converts an interval to minutes (months are 30 days, years 365).
func IntervalMinutes(iv string) (int, bool) {
	if len(iv) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(iv[:len(iv)-1])
	if err != nil || n <= 0 {
		return 0, false
	}
	switch iv[len(iv)-1] {
	case 'm':
		return n, true
	case 'h':
		return n * 60, true
	case 'D':
		return n * 1440, true
	case 'W':
		return n * 7 * 1440, true
	case 'M':
		return n * 30 * 1440, true
	case 'Y':
		return n * 365 * 1440, true
	}
	return 0, false
}

// RangeDays is the calendar span of a range value (to-date ranges at their longest).
func RangeDays(r string) (float64, bool) {
	switch r {
	case "1D", "DTD":
		return 1, true
	case "5D":
		return 7, true // five trading days span a calendar week
	case "WTD":
		return 7, true
	case "1M", "MTD":
		return 31, true
	case "3M":
		return 92, true
	case "6M":
		return 183, true
	case "1Y", "YTD":
		return 366, true
	case "5Y":
		return 5 * 366, true
	case "ALL":
		return 50 * 366, true
	}
	return 0, false
}

// Bars estimates how many bars a range shows at an interval (calendar time, so an
// upper bound for markets that close).
func Bars(rng, interval string) (int, bool) {
	d, ok := RangeDays(rng)
	m, ok2 := IntervalMinutes(interval)
	if !ok || !ok2 {
		return 0, false
	}
	return int(d * 1440 / float64(m)), true
}

var (
	symbolRE  = regexp.MustCompile(`^[A-Z0-9_.]+:[^\s:]+$`)
	formulaRE = regexp.MustCompile(`[A-Z0-9_.]+:[A-Z0-9_.!]+`)
)

// ValidSymbol accepts EXCHANGE:SYMBOL and formulas of them such as
// (NASDAQ:MARA+NASDAQ:RIOT)/10 (supported since Jan 2025).
func ValidSymbol(s string) bool {
	if symbolRE.MatchString(s) {
		return true
	}
	if !strings.ContainsAny(s, "+-*/()") || !formulaRE.MatchString(s) {
		return false
	}
	rest := formulaRE.ReplaceAllString(s, "")
	for _, r := range rest {
		if !strings.ContainsRune("+-*/() .0123456789", r) {
			return false
		}
	}
	return true
}

// LimitKind says which plan limit a 403 message names.
type LimitKind string

const (
	LimitResolution LimitKind = "resolution"
	LimitParameter  LimitKind = "parameter"
)

var limitRE = regexp.MustCompile(`(?i)Exceed Max Usage (Resolution|Parameter) Limit \(([^)]*)\)`)

// ParseLimitMessage reads "Exceed Max Usage Resolution Limit (800x600)" or
// "Exceed Max Usage Parameter Limit (3)" and returns the kind and the value.
func ParseLimitMessage(msg string) (LimitKind, string, bool) {
	m := limitRE.FindStringSubmatch(msg)
	if m == nil {
		return "", "", false
	}
	if strings.EqualFold(m[1], "resolution") {
		return LimitResolution, m[2], true
	}
	return LimitParameter, m[2], true
}

// PlanForLimit names the plan whose limit a 403 message quotes ("800x600" →
// BASIC); where plans share the limit it names the cheapest.
func PlanForLimit(kind LimitKind, value string) string {
	if ps := PlansForLimit(kind, value); len(ps) > 0 {
		return ps[0].Name
	}
	return ""
}

// PlansForLimit lists every plan with the limit a 403 message quotes: one for
// all parameter limits and most sizes, two for 2048x1920 (ULTRA, ENTERPRISE).
func PlansForLimit(kind LimitKind, value string) []Plan {
	var out []Plan
	for _, p := range Plans {
		switch kind {
		case LimitResolution:
			if value == fmt.Sprintf("%dx%d", p.MaxWidth, p.MaxHeight) {
				out = append(out, p)
			}
		case LimitParameter:
			if value == strconv.Itoa(p.MaxParameters) {
				out = append(out, p)
			}
		}
	}
	return out
}
