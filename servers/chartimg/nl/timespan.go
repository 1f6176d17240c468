package nl

// Ranges and intervals: "last 3 months", "4h candles", "on the daily", "this week".

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

var unitDays = map[string]float64{"second": 1.0 / 86400, "minute": 1.0 / 1440, "hour": 1.0 / 24, "day": 1, "week": 7,
	"month": 30, "quarter": 91, "year": 365, "decade": 3650, "fortnight": 14}

// time reads ranges and intervals from numbers with units and from words.
func (s *state) time() {
	for i := range s.items {
		it := &s.items[i]
		if it.used {
			continue
		}
		switch it.kind {
		case kRangeWord:
			it.used = true
			s.rangeHits = append(s.rangeHits, hit{value: it.value, phrase: it.tok.orig})
		case kIntervalWord:
			it.used = true
			s.ivHits = append(s.ivHits, hit{value: it.value, phrase: it.tok.orig})
		case kThis:
			if u := s.at(i + 1); u.kind == kUnit {
				it.used, u.used = true, true
				r := map[string]string{"day": "DTD", "week": "WTD", "month": "MTD", "year": "YTD"}[u.value]
				if r == "" {
					// no quarter-to-date code: sent as {from: the quarter's first day, to: now}
					s.rangeHits = append(s.rangeHits, hit{phrase: "this quarter", spanN: 1, spanUnit: "quarterToDate"})
					continue
				}
				s.rangeHits = append(s.rangeHits, hit{value: r, phrase: "this " + u.value})
			}
		case kNum:
			u := s.at(i + 1)
			if u.kind == kIntervalWord && !u.used { // "4-hourly", "2-daily"
				if unit, ok := nPer(it.tok.num, u.tok.word); ok {
					it.used, u.used = true, true
					s.addInterval(it.tok.num, unit, it.tok.orig+" "+u.tok.orig)
				}
				continue
			}
			if u.kind != kUnit || u.used {
				continue
			}
			it.used, u.used = true, true
			said := it.tok.orig + " " + u.tok.orig
			if u.tok.compact {
				said = it.tok.orig + u.tok.orig
			}
			// only one-letter units name intervals tightly ("4h", "1D"); "6mo", "1yr" read like words
			s.span(i, it.tok.num, u.value, said, u.tok.compact && len(u.tok.orig) == 1)
		case kUnit:
			prev := s.at(i - 1)
			n := 1.0
			article := false
			if prev.kind == kFiller && (prev.tok.word == "a" || prev.tok.word == "an") {
				prev = s.at(i - 2)
				article = true
			}
			// "a year of data", "an hour chart": one unit, read like a number
			cueBefore := prev.kind == kRangeCue || s.at(i-1).kind == kRangeCue || article && it.value != "minute" && it.value != "hour" && it.value != "second"
			next := s.at(i + 1)
			cueAfter := next.kind == kIntervalCue || s.barCue(next, s.at(i+2)) ||
				next.kind == kChart && (it.value == "minute" || it.value == "hour" || it.value == "day") // "hour chart", "day chart"
			// a bare "week", "month", "quarter", "year" is that range ("Tesla year chart")
			bare := it.value == "week" || it.value == "month" || it.value == "quarter" || it.value == "year"
			switch {
			case cueAfter:
				it.used, next.used = true, true
				s.addInterval(n, it.value, it.tok.orig+" "+next.tok.orig)
			case cueBefore:
				it.used = true
				s.addRange(n, it.value, strings.TrimSpace(prev.tok.orig+" "+it.tok.orig))
			case article:
				it.used = true
				s.addInterval(n, it.value, "an "+it.tok.orig)
			case bare:
				it.used = true
				s.addRange(1, it.value, it.tok.orig)
			}
		}
	}
}

// barCue: "candles"/"bars" after a span name its bar size ("4h candles"), unless
// they name the chart type ("1Y bar chart").
func (s *state) barCue(next, after *item) bool {
	return next.kind == kStyleWeak && (next.tok.word == "candle" || next.tok.word == "bar") && after.kind != kChart
}

// rangeCode is the API range a compact span names exactly (1D 5D 1M 3M 6M 1Y 5Y), or "".
func rangeCode(n float64, unit string) string {
	switch {
	case unit == "day" && (n == 1 || n == 5), unit == "month" && (n == 1 || n == 3 || n == 6), unit == "year" && (n == 1 || n == 5):
		return strconv.Itoa(int(n)) + map[string]string{"day": "D", "month": "M", "year": "Y"}[unit]
	}
	return ""
}

// minutes of an interval hit's API value.
func (h hit) minutes() float64 {
	m, _ := chart.IntervalMinutes(h.value)
	return float64(m)
}

// nPer reads "4-hourly" as 4 hours and "2-daily" as 2 days, only for the
// multiples chart-img draws; "Donchian 55 weekly" stays a length and an interval.
func nPer(n float64, word string) (string, bool) {
	switch word {
	case "hourly":
		return "hour", n == 2 || n == 3 || n == 4 || n == 6 || n == 8 || n == 12
	case "daily":
		return "day", n == 2 || n == 3
	}
	return "", false
}

// span decides whether "N unit" is a range or an interval from the words around it.
func (s *state) span(i int, n float64, unit, said string, compact bool) {
	next := s.at(i + 2)
	for k := i + 2; next.kind == kFiller || next.kind == kParen; k++ {
		next = s.at(k + 1)
	}
	prev := s.at(i - 1)
	for k := i - 1; prev.kind == kFiller && k > 0; k-- {
		prev = s.at(k - 1)
	}
	// cues before the number win ("Interval: 1h Range: 1M"), then cues after it ("3M range", "4h candles")
	rangeBefore := prev.kind == kRangeCue
	ivBefore := prev.kind == kIntervalCue || prev.kind == kOn || prev.kind == kWord && prev.tok.word == "every"
	ivAfter := next.kind == kIntervalCue || s.barCue(next, s.at(i+3))
	rangeAfter := next.kind == kRangeCue && next.tok.word == "range"
	switch {
	case ivBefore && !rangeBefore:
		if ivAfter {
			next.used = true
		}
		s.addInterval(n, unit, said)
	case ivAfter:
		next.used = true
		s.addInterval(n, unit, said)
	case rangeBefore || rangeAfter:
		s.addRange(n, unit, said)
	case unit == "hour" && n >= 24: // "24 hours", "48 hours" are periods, not bar sizes
		s.addRange(n, unit, said)
	case unit == "minute" || unit == "hour" || unit == "second":
		s.addInterval(n, unit, said)
	case compact && unit != "year" && !(unit == "day" && n == 5):
		// "4h", "1D", "1W", "1M" written tightly are how intervals are named; a second
		// one naming a longer API range is the range ("1D 1M", "4h 3M")
		if r := rangeCode(n, unit); r != "" && len(s.ivHits) > 0 && s.ivHits[0].minutes() < n*unitDays[unit]*1440 {
			s.rangeHits = append(s.rangeHits, hit{value: r, phrase: said})
			return
		}
		s.addInterval(n, unit, said)
	default:
		s.addRange(n, unit, said)
	}
}

func (s *state) addInterval(n float64, unit, said string) {
	if n <= 0 {
		s.warn("%q is not a usable interval", said)
		return
	}
	// "15M", "30M", "5M" as TradingView idea titles write minutes: no such
	// month interval exists, the minute one does (1M, 3M, 6M stay months)
	if unit == "month" && strings.HasSuffix(said, "M") && n == math.Trunc(n) {
		code := strconv.Itoa(int(n))
		if !slices.Contains(s.b.intervals, code+"M") && slices.Contains(s.b.intervals, code+"m") {
			unit = "minute"
			s.reason("interval: %q is minutes (there is no %s-month interval)", said, code)
		}
	}
	minutes := n * unitDays[unit] * 1440
	if unit == "month" {
		minutes = n * 30 * 1440
	}
	if unit == "year" {
		minutes = n * 365 * 1440
	}
	best, bestD := "", math.MaxFloat64
	for k, m := range s.b.ivMinutes {
		if d := math.Abs(float64(m) - minutes); d <= bestD { // ties go to the longer interval (fewer bars)
			best, bestD = s.b.intervals[k], d
		}
	}
	if bestD > 0.5 {
		s.warn("%q is not a supported interval; the nearest, %s, is used (supported: %s)", said, best, strings.Join(s.b.intervals, ", "))
	}
	s.ivHits = append(s.ivHits, hit{value: best, phrase: said})
}

// addRange maps a span onto the API's range enum only where the enum names
// that very span ("5 days" is 5D, "6 months" 6M, "2 quarters" 6M); any other
// span ("last 7 days", "2 weeks", "2 years") goes out exactly, as the object
// {"from","to"} the v2 API takes beside the enum (doc.chart-img.com, advanced
// chart v2 parameters: range "1D…YTD or {from, to} ISO 8601"). Widening it to
// a covering enum value would chart days nobody asked for; cutting it to 5D
// would lose two days of a crypto week.
func (s *state) addRange(n float64, unit, said string) {
	if n <= 0 {
		s.warn("%q is not a usable range", said)
		return
	}
	calendar := strings.Contains(strings.ToLower(said), "calendar")
	if unit == "day" && tradingDays(said) && n != 1 && n != 5 {
		// a span of sessions: {from,to} takes dates, so N trading days go
		// out as the calendar days that hold them (weekends added, holidays not)
		cal := math.Ceil(n * 7 / 5)
		s.warn("%q is sent as the last %g calendar days ({from,to} takes dates; holidays are not counted)", said, cal)
		n = cal
		calendar = true
	}
	exact := ""
	switch unit {
	case "hour":
		if n == 24 {
			exact = "1D"
		}
	case "day":
		switch n {
		case 1:
			exact = "1D"
		case 5:
			exact = "5D"
		}
	case "month":
		switch n {
		case 1:
			exact = "1M"
		case 3:
			exact = "3M"
		case 6:
			exact = "6M"
		case 12:
			exact = "1Y"
		case 60:
			exact = "5Y"
		}
	case "quarter":
		switch n {
		case 1:
			exact = "3M"
		case 2:
			exact = "6M"
		case 4:
			exact = "1Y"
		}
	case "year":
		switch n {
		case 1:
			exact = "1Y"
		case 5:
			exact = "5Y"
		}
	}
	if exact != "" {
		s.rangeHits = append(s.rangeHits, hit{value: exact, phrase: said})
		return
	}
	if n*unitDays[unit] < 1.0/24 { // "range: 1m" is a minute: too short for any bar
		s.warn("a %q range is shorter than any chart; 1D, the shortest range, is used", said)
		s.rangeHits = append(s.rangeHits, hit{value: "1D", phrase: said})
		return
	}
	if n*unitDays[unit] > 100*365 {
		s.warn("%q is longer than any chart history; ALL is used", said)
		s.rangeHits = append(s.rangeHits, hit{value: "ALL", phrase: said})
		return
	}
	s.rangeHits = append(s.rangeHits, hit{phrase: said, spanN: n, spanUnit: unit, calendar: calendar})
}

// tradingDays reports whether a day span counts sessions ("10 trading
// days", "3 business days", "2 sessions"): 5D is five of them.
func tradingDays(said string) bool {
	l := strings.ToLower(said)
	return strings.Contains(l, "trading") || strings.Contains(l, "business") || strings.Contains(l, "session")
}

// spanFrom is the start of a span of n units ending at to: calendar units
// step by the calendar ("2 months" before 31 March is 31 January), the rest
// by their length.
func spanFrom(to time.Time, n float64, unit string) time.Time {
	if unit == "quarterToDate" {
		return time.Date(to.Year(), (to.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	}
	if n == math.Trunc(n) {
		k := int(n)
		switch unit {
		case "day":
			return to.AddDate(0, 0, -k)
		case "week":
			return to.AddDate(0, 0, -7*k)
		case "fortnight":
			return to.AddDate(0, 0, -14*k)
		case "month":
			return to.AddDate(0, -k, 0)
		case "quarter":
			return to.AddDate(0, -3*k, 0)
		case "year":
			return to.AddDate(-k, 0, 0)
		case "decade":
			return to.AddDate(-10*k, 0, 0)
		}
	}
	return to.Add(-time.Duration(n * unitDays[unit] * float64(24*time.Hour)))
}

// spanInterval is the interval for a {from,to} span: the one the smallest
// enum range covering it would get, so the bar count stays readable.
func spanInterval(days float64) string {
	switch {
	case days <= 1:
		return defaultInterval["1D"]
	case days <= 7:
		return defaultInterval["5D"]
	case days <= 31:
		return defaultInterval["1M"]
	case days <= 366:
		return defaultInterval["1Y"]
	case days <= 5*366:
		return defaultInterval["5Y"]
	}
	return defaultInterval["ALL"]
}

// defaultInterval keeps a range under the API's ~1,000 bars with readable candles.
var defaultInterval = map[string]string{"1D": "15m", "DTD": "5m", "5D": "1h", "WTD": "30m", "1M": "4h", "MTD": "1h",
	"3M": "1D", "6M": "1D", "1Y": "1D", "YTD": "1D", "5Y": "1W", "ALL": "1M"}
