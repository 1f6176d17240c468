// Package nl turns a chart request in plain English into a chart-img v2 request
// body, deterministically: a small lexer (numbers as digits or words, units,
// plurals), a phrase dictionary built from the documented indicator names plus
// aliases, and rules that attach numbers to the indicator, range or interval next
// to them. Whatever it cannot resolve becomes a warning, never a silent guess.
package nl

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// Preferences override what the text says.
type Preferences struct {
	Theme      string `json:"theme,omitempty" jsonschema:"overrides the text" mcp:"enum=light|dark"`
	Resolution string `json:"resolution,omitempty" jsonschema:"WIDTHxHEIGHT, e.g. 1280x720" mcp:"pattern=^[0-9]{3,4}x[0-9]{3,4}$"`
	Interval   string `json:"interval,omitempty" jsonschema:"bar interval" mcp:"enum=1m|2m|3m|5m|15m|30m|45m|1h|2h|3h|4h|6h|8h|12h|1D|2D|3D|1W|1M|3M|6M|1Y"`
	Range      string `json:"range,omitempty" jsonschema:"visible range" mcp:"enum=1D|5D|1M|3M|6M|1Y|5Y|ALL|DTD|WTD|MTD|YTD"`
}

// Request is what construct_chart_config receives.
type Request struct {
	Text     string
	Symbol   string
	Exchange string
	Prefs    Preferences
}

// Result is the config plus how it was reached.
type Result struct {
	Config    chart.Config `json:"config"`
	Reasoning []string     `json:"reasoning"`
	Warnings  []string     `json:"warnings"`
}

// Builder holds the dictionary built from one copy of the docs.
type Builder struct {
	docs      *docsparse.Docs
	dict      dict
	intervals []string
	ranges    []string
	ivMinutes []int
}

// New builds the dictionary from the docs (names, inputs, value sets).
func New(d *docsparse.Docs) *Builder {
	b := &Builder{docs: d, dict: buildDict(d.IndicatorNames()), intervals: d.Parameters.Intervals, ranges: d.Parameters.Ranges}
	if len(b.intervals) == 0 {
		b.intervals = chart.Intervals
	}
	if len(b.ranges) == 0 {
		b.ranges = chart.Ranges
	}
	for _, iv := range b.intervals {
		m, _ := chart.IntervalMinutes(iv)
		b.ivMinutes = append(b.ivMinutes, m)
	}
	return b
}

var (
	explicitRE = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9_]{1,24}):([A-Za-z0-9_.!]{1,30})`)
	pairRE     = regexp.MustCompile(`\b([A-Za-z]{3,5})\s?/\s?([A-Za-z]{3,5})\b`)
	sizeRE     = regexp.MustCompile(`(?i)\b(\d{3,4})\s?(?:x|×|by)\s?(\d{3,4})(?:\s?(?:px|pixels?))?\b`)
)

type item struct {
	kind  kind
	value string
	sym   *symbol
	tok   token
	used  bool
}

type numArg struct {
	v     float64
	isInt bool
	role  string
}

type hit struct {
	value  string
	phrase string
}

type state struct {
	b         *Builder
	items     []item
	res       Result
	symbols   []hit // EXCHANGE:TICKER candidates in text order
	symObjs   []*symbol
	exchanges []string
	tickers   []string
	rangeHits []hit
	ivHits    []hit
	width     int
	height    int
	sizeWhy   string
	theme     string
	style     string
	scale     string
	session   string
	format    string
	ivHint    string
}

// Build turns the request into a config. It never fails: problems are warnings.
func (b *Builder) Build(req Request) Result {
	s := &state{b: b, res: Result{Reasoning: make([]string, 0, 8), Warnings: []string{}}}
	text := s.extract(req.Text)
	var toks [48]token
	s.match(lex(text, toks[:0]))
	s.indicators()
	s.drawingsAndSize()
	s.time()
	s.rest()
	s.finish(req)
	return s.res
}

func (s *state) reason(f string, a ...any) {
	s.res.Reasoning = append(s.res.Reasoning, fmt.Sprintf(f, a...))
}
func (s *state) warn(f string, a ...any) {
	s.res.Warnings = append(s.res.Warnings, fmt.Sprintf(f, a...))
}

func blank(text string, loc []int) string {
	return text[:loc[0]] + strings.Repeat(" ", loc[1]-loc[0]) + text[loc[1]:]
}

// extract takes out what regexes see best: EXCHANGE:SYMBOL, A/B pairs, WxH sizes.
func (s *state) extract(text string) string {
	if strings.IndexByte(text, ':') >= 0 {
		for _, m := range explicitRE.FindAllStringSubmatchIndex(text, 4) {
			ex := strings.ToLower(text[m[2]:m[3]])
			if _, isWord := s.b.dict[ex]; isWord || glueable[ex] || len(ex) < 2 {
				text = text[:m[3]] + " " + text[m[3]+1:] // "RSI:14" is an indicator with a length
				continue
			}
			sym := strings.ToUpper(text[m[0]:m[1]])
			s.symbols = append(s.symbols, hit{sym, text[m[0]:m[1]]})
			text = blank(text, m[:2])
		}
	}
	if strings.IndexByte(text, '/') >= 0 {
		for _, m := range pairRE.FindAllStringSubmatchIndex(text, 4) {
			a, q := strings.ToLower(text[m[2]:m[3]]), strings.ToLower(text[m[4]:m[5]])
			if full, ok := s.pair(a, q); ok {
				s.symbols = append(s.symbols, hit{full, text[m[0]:m[1]]})
				text = blank(text, m[:2])
			}
		}
	}
	if m := sizeRE.FindStringSubmatchIndex(text); m != nil {
		s.width, _ = strconv.Atoi(text[m[2]:m[3]])
		s.height, _ = strconv.Atoi(text[m[4]:m[5]])
		s.sizeWhy = strings.TrimSpace(text[m[0]:m[1]])
		text = blank(text, m[:2])
	}
	return text
}

// pair resolves a base/quote pair: two currencies → FX, a crypto base → its exchange.
func (s *state) pair(a, q string) (string, bool) {
	if currencies[a] && currencies[q] && a != q {
		return "FX:" + strings.ToUpper(a+q), true
	}
	if base, ok := cryptoBase(a); ok {
		switch q {
		case "usdt", "usdc", "btc", "eth", "fdusd":
			return "BINANCE:" + base + strings.ToUpper(q), true
		case "usd", "eur", "gbp":
			return "COINBASE:" + base + strings.ToUpper(q), true
		}
	}
	return "", false
}

var cryptoBases = func() map[string]string {
	m := map[string]string{}
	for _, c := range cryptos {
		m[strings.ToLower(c[1])] = c[1]
	}
	return m
}()

func cryptoBase(w string) (string, bool) {
	b, ok := cryptoBases[w]
	return b, ok
}

func key(t token) string {
	switch t.kind {
	case tNum:
		return "#" + t.orig
	case tSep:
		return t.word
	}
	return t.word
}

func (s *state) match(toks []token) {
	s.items = make([]item, 0, len(toks))
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.kind == tOpen || t.kind == tClose {
			s.items = append(s.items, item{kind: kParen, tok: t})
			i++
			continue
		}
		matched := false
		for _, p := range s.b.dict[key(t)] {
			if i+len(p.words) > len(toks) {
				continue
			}
			ok := true
			for j := 1; j < len(p.words); j++ {
				if key(toks[i+j]) != p.words[j] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			// A number inside a phrase ("nasdaq 100") is part of it; a lone number is not.
			if len(p.words) == 1 && t.kind == tNum {
				break
			}
			it := item{kind: p.e.kind, value: p.e.value, sym: p.e.sym, tok: t}
			if len(p.words) > 1 {
				it.tok.orig = joinOrig(toks[i : i+len(p.words)])
			}
			s.items = append(s.items, it)
			i += len(p.words)
			matched = true
			break
		}
		if matched {
			continue
		}
		switch t.kind {
		case tNum:
			s.items = append(s.items, item{kind: kNum, tok: t})
		case tSep:
			s.items = append(s.items, item{kind: kAnd, tok: t})
		default:
			s.items = append(s.items, item{kind: kWord, tok: t})
		}
		i++
	}
}

func joinOrig(ts []token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.kind != tSep && ts[i-1].kind != tSep {
			b.WriteByte(' ')
		}
		if t.kind == tSep {
			b.WriteString(t.word)
		} else {
			b.WriteString(t.orig)
		}
	}
	return b.String()
}

func (s *state) at(i int) *item {
	if i < 0 || i >= len(s.items) {
		return &item{kind: kNone}
	}
	return &s.items[i]
}

// paramUnit reports whether an item can sit between a number and an indicator:
// "50-day MA", "20 period EMA", "200 bar SMA", "200-week MA".
func (s *state) paramUnit(it *item) bool {
	switch it.kind {
	case kUnit:
		return it.value == "day" || it.value == "week"
	case kIntervalCue, kStyleWeak:
		return it.tok.word == "bar" || it.tok.word == "candle"
	case kRole:
		return it.value == "length"
	}
	return false
}

// indicators attaches numbers to each indicator: those right before it first
// (so "RSI and 50 EMA" gives 50 to the EMA), then those after it.
func (s *state) indicators() {
	pre := map[int][]numArg{}
	for i := range s.items {
		if k := s.items[i].kind; k != kIndicator && k != kCross {
			continue
		}
		j := i - 1
		unit := ""
		for j >= 0 && s.paramUnit(s.at(j)) {
			if s.at(j).kind == kUnit {
				unit = s.at(j).value
			}
			j--
		}
		var nums []numArg
		var idx []int
		for j >= 0 {
			it := s.at(j)
			if it.kind == kNum && !it.used {
				nums = append(nums, numArg{v: it.tok.num, isInt: it.tok.isInt})
				idx = append(idx, j)
				j--
				// "50 and 200 day", "50-day and 200-day", "20, 50 and 200"
				if s.at(j).kind == kAnd {
					k := j - 1
					for k >= 0 && s.paramUnit(s.at(k)) {
						k--
					}
					if s.at(k).kind == kNum && !s.at(k).used {
						j = k
						continue
					}
				}
			}
			break
		}
		if len(nums) == 0 || s.at(j).kind == kRangeCue {
			continue
		}
		if s.items[i].value == "Standard Deviation" && len(nums) == 1 {
			k := j
			for s.at(k).kind == kFiller || s.at(k).kind == kAt {
				k--
			}
			if s.at(k).kind == kIndicator { // "bollinger bands with 2.5 standard deviations"
				continue
			}
		}
		for k := len(nums) - 1; k >= 0; k-- { // text order
			pre[i] = append(pre[i], nums[k])
			s.items[idx[k]].used = true
		}
		for k := idx[len(idx)-1]; k < i; k++ {
			s.items[k].used = true
		}
		if unit == "week" && s.ivHint == "" {
			s.ivHint = "1W"
		}
	}
	for i := range s.items {
		it := &s.items[i]
		if it.kind != kIndicator && it.kind != kCross {
			continue
		}
		it.used = true
		// "Relative Strength Index (RSI) 14": the same indicator named twice is one
		j := i + 1
		for s.at(j).kind == kParen {
			j++
		}
		if n := s.at(j); n.kind == kIndicator && n.value == it.value && len(pre[i]) == 0 {
			continue
		}
		if k := s.prevSkipping(i, kFiller); negations[s.at(k).tok.word] && s.at(k).kind == kWord {
			s.reason("indicator: %q not added (%s)", it.tok.orig, s.at(k).tok.orig)
			s.post(i) // its numbers are its own, not another's
			continue
		}
		nums := append(pre[i], s.post(i)...)
		if it.kind == kCross {
			s.cross(it, nums)
			continue
		}
		s.addStudies(it.value, it.tok.orig, nums)
	}
}

// negations before an indicator drop it ("without volume", "no RSI").
var negations = map[string]bool{"without": true, "no": true, "hide": true, "remove": true, "exclude": true, "excluding": true, "except": true, "not": true, "minus": true}

// prevSkipping is the index before i, skipping items of kind k.
func (s *state) prevSkipping(i int, k kind) int {
	j := i - 1
	for j >= 0 && s.items[j].kind == k {
		j--
	}
	return j
}

// post collects the numbers after an indicator: "RSI 21", "MACD(12, 26, 9)",
// "Bollinger Bands with length 20 and 2.5 standard deviations", "EMA 20 and 50".
func (s *state) post(i int) []numArg {
	var nums []numArg
	role := ""
	for j := i + 1; j < len(s.items); j++ {
		it := s.at(j)
		switch it.kind {
		case kParen, kFiller:
			continue
		case kAt: // "Bollinger Bands at 2.5 standard deviations"
			if s.at(j+1).kind == kNum {
				continue
			}
			return nums
		case kRole:
			if n := len(nums); n > 0 && nums[n-1].role == "" && s.at(j-1).kind == kNum && role == "" && it.value != "length" {
				nums[n-1].role = it.value // "2.5 std"
			} else {
				role = it.value
			}
			it.used = true
			continue
		case kIndicator:
			if it.value != "Standard Deviation" {
				return nums
			}
			// inside another indicator's settings "std 2" / "2.5 standard deviations" is its multiplier
			if n := len(nums); n > 0 && s.at(j-1).kind == kNum && nums[n-1].role == "" {
				nums[n-1].role = "mult"
				it.kind, it.used = kRole, true
				continue
			}
			if s.at(j+1).kind == kNum && len(nums) > 0 {
				role = "mult"
				it.kind, it.used = kRole, true
				continue
			}
			return nums
		case kNum:
			if it.used {
				return nums
			}
			next := s.at(j + 1)
			if next.kind == kIndicator && next.value == "Standard Deviation" {
				nums = append(nums, numArg{v: it.tok.num, isInt: it.tok.isInt, role: "mult"})
				it.used, next.used, next.kind = true, true, kRole
				j++
				continue
			}
			if next.kind == kUnit && next.value != "day" || next.kind == kIntervalCue || next.kind == kIndicator || next.kind == kIntervalWord {
				return nums
			}
			nums = append(nums, numArg{v: it.tok.num, isInt: it.tok.isInt, role: role})
			role = ""
			it.used = true
			if next.kind == kUnit { // "RSI 14 day"
				next.used = true
				j++
			}
			continue
		case kAnd:
			n := s.at(j + 1)
			if n.kind == kIndicator && n.value == "Standard Deviation" && s.at(j+2).kind == kNum {
				n = &item{kind: kRole}
			}
			if (n.kind == kNum && !n.used || n.kind == kRole) && len(nums) > 0 {
				continue
			}
		}
		return nums
	}
	return nums
}

func (s *state) cross(it *item, nums []numArg) {
	a, b := 50.0, 200.0
	if len(nums) >= 2 {
		a, b = nums[0].v, nums[1].v
	}
	s.addStudy(chart.Study{Name: "MA Cross", Input: map[string]any{"in_0": int(a), "in_1": int(b)}},
		fmt.Sprintf("%q → MA Cross of %g and %g", it.tok.orig, a, b))
}

func numeric(in docsparse.Input) bool { return in.Type == "Integer" || in.Type == "Float" }

func secondary(in docsparse.Input) bool {
	d := strings.ToLower(in.Description)
	return in.Key == "offset" || in.Key == "smoothingLength" || strings.HasPrefix(d, "smoothing") || strings.Contains(d, "offset")
}

// roleInput finds the input a keyword names, reading the documented descriptions.
func roleInput(ind *docsparse.Indicator, role string, taken map[string]bool) (docsparse.Input, bool) {
	for _, in := range ind.Inputs {
		if !numeric(in) || taken[in.Key] {
			continue
		}
		d, k := strings.ToLower(in.Description), strings.ToLower(in.Key)
		ok := false
		switch role {
		case "length":
			ok = !secondary(in) && (k == "length" || k == "periods" || strings.HasPrefix(d, "length") || strings.HasPrefix(d, "period") || d == "k")
		case "mult":
			ok = strings.Contains(d, "mult") || strings.Contains(d, "factor") || strings.Contains(d, "deviation") || strings.Contains(d, "standard error")
		case "fast":
			ok = strings.Contains(d, "fast") || d == "short" || d == "shortlen"
		case "slow":
			ok = strings.Contains(d, "slow") || d == "long" || d == "longlen"
		case "signal":
			ok = strings.Contains(d, "signal") || d == "siglen"
		case "smooth":
			ok = strings.HasPrefix(d, "smooth")
		case "k":
			ok = d == "k" || d == "smooth k"
		case "d":
			ok = d == "d" || d == "smooth d"
		}
		if ok {
			return in, true
		}
	}
	if role == "length" {
		for _, in := range ind.Inputs {
			if numeric(in) && !secondary(in) && !taken[in.Key] {
				return in, true
			}
		}
	}
	return docsparse.Input{}, false
}

func (s *state) addStudies(name, said string, nums []numArg) {
	ind, ok := s.b.docs.Indicator(name)
	if !ok {
		s.warn("%q is not in the documented indicator list; call fetch_chart_documentation for the names", said)
		return
	}
	var primary []docsparse.Input
	for _, in := range ind.Inputs {
		if numeric(in) && !secondary(in) {
			primary = append(primary, in)
		}
	}
	allPositional := true
	for _, n := range nums {
		if n.role != "" && n.role != "length" {
			allPositional = false
		}
	}
	// "50 and 200 day moving averages", "EMA 9, 21 and 55": one study per number.
	if len(primary) == 1 && len(nums) > 1 && allPositional {
		for _, n := range nums {
			s.addOne(ind, said, []numArg{{v: n.v, isInt: n.isInt}})
		}
		return
	}
	s.addOne(ind, said, nums)
}

func (s *state) addOne(ind *docsparse.Indicator, said string, nums []numArg) {
	st := chart.Study{Name: ind.Name}
	taken := map[string]bool{}
	var parts []string
	set := func(in docsparse.Input, n numArg) {
		v := n.v
		if in.Min != nil && v < *in.Min || in.Max != nil && v > *in.Max {
			s.warn("%s %s=%g is outside the documented %s; the default is used", ind.Name, in.Key, v, bounds(in))
			taken[in.Key] = true
			return
		}
		if st.Input == nil {
			st.Input = map[string]any{}
		}
		if in.Type == "Integer" {
			if v != math.Trunc(v) {
				s.warn("%s %s takes a whole number; %g was rounded to %d", ind.Name, in.Key, v, int(math.Round(v)))
			}
			st.Input[in.Key] = int(math.Round(v))
		} else {
			st.Input[in.Key] = v
		}
		taken[in.Key] = true
		parts = append(parts, fmt.Sprintf("%s=%g", in.Key, v))
	}
	var rest []numArg
	for _, n := range nums {
		if n.role == "" {
			rest = append(rest, n)
			continue
		}
		if in, ok := roleInput(ind, n.role, taken); ok {
			set(in, n)
		} else {
			s.warn("%s has no %s input; %g was ignored", ind.Name, n.role, n.v)
		}
	}
	for _, n := range rest {
		in, ok := roleInput(ind, "length", taken)
		if ok && in.Type == "Integer" && n.v != math.Trunc(n.v) {
			// "Bollinger Bands 2.5": a fraction belongs to the first free Float input (the multiplier)
			for _, f := range ind.Inputs {
				if f.Type == "Float" && !taken[f.Key] && !secondary(f) {
					in = f
					break
				}
			}
		}
		if !ok {
			if len(ind.Inputs) == 0 {
				s.warn("%s takes no inputs; %g was ignored", ind.Name, n.v)
			} else {
				s.warn("%s takes fewer numeric inputs; %g was ignored", ind.Name, n.v)
			}
			continue
		}
		set(in, n)
	}
	why := fmt.Sprintf("%q → %s", said, ind.Name)
	if len(parts) > 0 {
		why += " {" + strings.Join(parts, ", ") + "}"
	} else if len(ind.Inputs) > 0 {
		why += " (documented defaults)"
	}
	s.addStudy(st, why)
}

func bounds(in docsparse.Input) string {
	lo, hi := "-∞", "∞"
	if in.Min != nil {
		lo = strconv.FormatFloat(*in.Min, 'g', -1, 64)
	}
	if in.Max != nil {
		hi = strconv.FormatFloat(*in.Max, 'g', -1, 64)
	}
	return "range " + lo + ".." + hi
}

func (s *state) addStudy(st chart.Study, why string) {
	for _, have := range s.res.Config.Studies {
		if have.Name == st.Name && fmt.Sprint(have.Input) == fmt.Sprint(st.Input) {
			return
		}
	}
	s.res.Config.Studies = append(s.res.Config.Studies, st)
	s.reason("indicator: %s", why)
}

// drawingsAndSize reads "horizontal line at 65000", "support at 60k and 58k",
// "1080p", "width 1000".
func (s *state) drawingsAndSize() {
	for i := range s.items {
		it := &s.items[i]
		switch {
		case it.kind == kDrawing:
			j := i + 1
			for s.at(j).kind == kAt || s.at(j).kind == kFiller {
				j++
			}
			found := false
			for s.at(j).kind == kNum && !s.at(j).used {
				p := s.at(j).tok.num
				s.at(j).used = true
				in := map[string]any{"price": p}
				if it.value != "" {
					in["text"] = it.value
				}
				s.res.Config.Drawings = append(s.res.Config.Drawings, chart.Drawing{Name: "Horizontal Line", Input: in})
				s.reason("drawing: %q → Horizontal Line at %g", it.tok.orig, p)
				found = true
				j++
				if s.at(j).kind == kAnd && s.at(j+1).kind == kNum {
					j++
				}
			}
			it.used = true
			if !found && it.value == "" && it.tok.word != "level" {
				s.warn("%q needs a price (e.g. \"horizontal line at 65000\"); no drawing added", it.tok.orig)
			}
		case it.kind == kSizeWord:
			it.used = true
			w, h, _ := strings.Cut(it.value, "x")
			s.width, _ = strconv.Atoi(w)
			s.height, _ = strconv.Atoi(h)
			s.sizeWhy = it.tok.orig
		case it.kind == kWord && (it.tok.word == "width" || it.tok.word == "height"):
			j := i + 1
			for s.at(j).kind == kFiller || s.at(j).kind == kAt {
				j++
			}
			if n := s.at(j); n.kind == kNum && !n.used {
				n.used = true
				if it.tok.word == "width" {
					s.width = int(n.tok.num)
				} else {
					s.height = int(n.tok.num)
				}
				s.sizeWhy = it.tok.word + " " + n.tok.orig
			}
		case it.kind == kNum && !it.used && (s.at(i+1).tok.word == "wide" || s.at(i+1).tok.word == "tall"):
			it.used = true
			if s.at(i+1).tok.word == "wide" {
				s.width = int(it.tok.num)
			} else {
				s.height = int(it.tok.num)
			}
			s.sizeWhy = it.tok.orig + " " + s.at(i+1).tok.word
		}
	}
}

var unitDays = map[string]float64{"second": 1.0 / 86400, "minute": 1.0 / 1440, "hour": 1.0 / 24, "day": 1, "week": 7,
	"month": 30, "quarter": 91, "year": 365, "decade": 3650}

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
			s.rangeHits = append(s.rangeHits, hit{it.value, it.tok.orig})
		case kIntervalWord:
			it.used = true
			s.ivHits = append(s.ivHits, hit{it.value, it.tok.orig})
		case kThis:
			if u := s.at(i + 1); u.kind == kUnit {
				it.used, u.used = true, true
				r := map[string]string{"day": "DTD", "week": "WTD", "month": "MTD", "year": "YTD"}[u.value]
				if r == "" {
					s.rangeHits = append(s.rangeHits, hit{"3M", "this quarter"})
					s.warn("the API has no quarter-to-date range; \"this quarter\" became 3M")
					continue
				}
				s.rangeHits = append(s.rangeHits, hit{r, "this " + u.value})
			}
		case kNum:
			u := s.at(i + 1)
			if u.kind == kIntervalWord && !u.used { // "4-hourly", "2 daily"
				if unit, ok := perWord[u.tok.word]; ok {
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
			cueAfter := next.kind == kIntervalCue || next.kind == kStyleWeak && (next.tok.word == "candle" || next.tok.word == "bar") ||
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

// perWord turns "hourly" after a number into its unit ("4-hourly" = 4 hours).
var perWord = map[string]string{"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month"}

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
	rangeCue := prev.kind == kRangeCue || next.kind == kRangeCue && next.tok.word == "range" // "last 3 months", "3M range"
	ivCue := next.kind == kIntervalCue || next.kind == kStyleWeak && (next.tok.word == "candle" || next.tok.word == "bar") ||
		prev.kind == kOn || prev.kind == kWord && prev.tok.word == "every"
	switch {
	case ivCue && !rangeCue, ivCue && rangeCue && next.kind != kNone:
		if next.kind == kIntervalCue || next.kind == kStyleWeak {
			next.used = true
		}
		s.addInterval(n, unit, said)
	case rangeCue:
		s.addRange(n, unit, said)
	case unit == "hour" && n >= 24: // "24 hours", "48 hours" are periods, not bar sizes
		s.addRange(n, unit, said)
	case unit == "minute" || unit == "hour" || unit == "second":
		s.addInterval(n, unit, said)
	case compact && unit != "year" && !(unit == "day" && n == 5):
		// "4h", "1D", "1W", "1M" written tightly are how intervals are named
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
	s.ivHits = append(s.ivHits, hit{best, said})
}

// exact spans map straight onto API ranges; anything else takes the smallest range that covers it.
func (s *state) addRange(n float64, unit, said string) {
	days := n * unitDays[unit]
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
		case 5, 7:
			exact = "5D"
		case 30, 31:
			exact = "1M"
		case 90, 91, 92:
			exact = "3M"
		case 180, 182, 183:
			exact = "6M"
		case 365, 366:
			exact = "1Y"
		}
	case "week":
		switch n {
		case 1:
			exact = "5D"
		case 4:
			exact = "1M"
		case 13:
			exact = "3M"
		case 26:
			exact = "6M"
		case 52:
			exact = "1Y"
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
		s.rangeHits = append(s.rangeHits, hit{exact, said})
		return
	}
	cover := "ALL"
	switch {
	case days <= 0:
		s.warn("%q is not a usable range", said)
		return
	case days <= 1:
		cover = "1D"
	case days <= 7:
		cover = "5D"
	case days <= 31:
		cover = "1M"
	case days <= 92:
		cover = "3M"
	case days <= 183:
		cover = "6M"
	case days <= 366:
		cover = "1Y"
	case days <= 5*366:
		cover = "5Y"
	}
	s.warn("the API has no %q range; %s, the smallest range that covers it, is used (or pass range {from,to})", said, cover)
	s.rangeHits = append(s.rangeHits, hit{cover, said})
}

// stopTickers are capitalised words that are not tickers.
var stopTickers = map[string]bool{"I": true, "A": true, "AND": true, "THE": true, "USD": true, "UTC": true, "EST": true,
	"PST": true, "GMT": true, "PNG": true, "JPEG": true, "JPG": true, "OK": true, "HD": true, "UK": true, "US": true, "EU": true,
	"PM": true, "AM": true, "MAX": true, "ALL": true, "NEW": true, "ON": true, "OF": true, "FOR": true, "TO": true, "IN": true,
	"AT": true, "BY": true, "ME": true, "MY": true, "IT": true, "IS": true, "PLEASE": true, "CHART": true, "SHOW": true,
	"WITH": true, "LAST": true, "PAST": true, "API": true, "TV": true, "NOW": true, "GET": true, "AN": true, "OR": true,
	"DAY": true, "WEEK": true, "YEAR": true, "MONTH": true, "HOUR": true, "ETF": true, "FX": true, "CFD": true}

func (s *state) rest() {
	for i := range s.items {
		it := &s.items[i]
		if it.used {
			continue
		}
		switch it.kind {
		case kSymbol:
			s.symObjs = append(s.symObjs, it.sym)
			s.symbols = append(s.symbols, hit{it.sym.full, it.tok.orig})
		case kExchange:
			s.exchanges = append(s.exchanges, it.value)
		case kTheme:
			s.setOnce(&s.theme, it.value, "theme", it.tok.orig)
		case kStyle:
			s.setOnce(&s.style, it.value, "style", it.tok.orig)
		case kStyleWeak:
			next, prev := s.at(i+1), s.at(i-1)
			alone := (prev.kind == kAnd || prev.kind == kNone) && (next.kind == kAnd || next.kind == kNone) // "…, line, …"
			if (next.kind == kChart || prev.kind == kOn || alone) && !(s.style != "" && it.value == "candle") {
				s.setOnce(&s.style, it.value, "style", strings.TrimSpace(it.tok.orig+" "+next.tok.orig))
			}
		case kScale:
			s.setOnce(&s.scale, it.value, "scale", it.tok.orig)
		case kSession:
			s.setOnce(&s.session, it.value, "session", it.tok.orig)
		case kFormat:
			s.setOnce(&s.format, it.value, "format", it.tok.orig)
		case kUnsupported:
			switch {
			case strings.HasPrefix(it.value, "drawing:"):
				s.warn("%s is a chart-img drawing that needs dates and prices; add it to config.drawings (see fetch_chart_documentation)", strings.TrimPrefix(it.value, "drawing:"))
			case it.value == "style":
				s.warn("%q is not a chart-img style; use one of %s", it.tok.orig, strings.Join(chart.Styles, ", "))
			default:
				s.warn("%q is not a documented chart-img indicator; nothing was added for it", it.tok.orig)
			}
		case kWord:
			s.word(i, it)
		case kNum:
			if v := it.tok.num; it.tok.isInt && v >= 1990 && v <= 2100 && len(it.tok.orig) == 4 {
				s.warn("dates such as %s are not read from text; pass range as {\"from\",\"to\"} ISO 8601 to chart a period", it.tok.orig)
			} else {
				s.warn("the number %s was not attached to an indicator, range, interval, size or price level; it was ignored", it.tok.orig)
			}
		}
	}
}

func (s *state) setOnce(dst *string, v, what, said string) {
	if *dst != "" && *dst != v {
		s.warn("several %ss stated; %s is used, %q ignored", what, *dst, said)
		return
	}
	if *dst == "" {
		*dst = v
		s.reason("%s: %q → %s", what, said, v)
	}
}

// word looks at an unrecognised word: a pair (eurusd, btcusdt), a ticker (PLTR),
// or "foo indicator".
func (s *state) word(i int, it *item) {
	w := it.tok.word
	if len(w) >= 6 && len(w) <= 10 {
		for _, q := range []string{"usdt", "usdc", "usd", "eur", "btc", "eth", "jpy", "gbp", "chf", "cad", "aud"} {
			if strings.HasSuffix(w, q) && len(w) > len(q)+1 {
				if full, ok := s.pair(w[:len(w)-len(q)], q); ok {
					s.symbols = append(s.symbols, hit{full, it.tok.orig})
					return
				}
			}
		}
	}
	next := s.at(i + 1)
	if next.kind == kWord && (next.tok.word == "indicator" || next.tok.word == "oscillator" || next.tok.word == "overlay" || next.tok.word == "study") &&
		!negations[w] && !genericWords[w] {
		s.warn("%q is not in the documented indicator list; call fetch_chart_documentation for the names", it.tok.orig+" "+next.tok.orig)
		return
	}
	if it.tok.upper && len(it.tok.orig) >= 2 && len(it.tok.orig) <= 5 && !stopTickers[it.tok.orig] && onlyLetters(it.tok.orig) {
		s.tickers = append(s.tickers, it.tok.orig)
	}
}

// genericWords before "indicator" name no indicator ("any indicators", "technical indicators").
var genericWords = map[string]bool{"any": true, "some": true, "other": true, "more": true, "technical": true, "few": true,
	"common": true, "basic": true, "popular": true, "favorite": true, "favourite": true, "usual": true, "standard": true, "main": true, "key": true}

func onlyLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

// defaultInterval keeps a range under the API's ~1,000 bars with readable candles.
var defaultInterval = map[string]string{"1D": "15m", "DTD": "5m", "5D": "1h", "WTD": "30m", "1M": "4h", "MTD": "1h",
	"3M": "1D", "6M": "1D", "1Y": "1D", "YTD": "1D", "5Y": "1W", "ALL": "1M"}

func (s *state) finish(req Request) {
	c := &s.res.Config
	s.resolveSymbol(req)

	// range, then interval (preferences first)
	switch {
	case req.Prefs.Range != "":
		c.Range = req.Prefs.Range
		s.reason("range: %s from preferences", req.Prefs.Range)
	case len(s.rangeHits) > 0:
		c.Range = s.rangeHits[0].value
		s.reason("range: %q → %s", s.rangeHits[0].phrase, s.rangeHits[0].value)
		s.extra("range", s.rangeHits)
	}
	rng, _ := c.Range.(string)
	switch {
	case req.Prefs.Interval != "":
		c.Interval = req.Prefs.Interval
		s.reason("interval: %s from preferences", c.Interval)
	case len(s.ivHits) > 0:
		c.Interval = s.ivHits[0].value
		s.reason("interval: %q → %s", s.ivHits[0].phrase, c.Interval)
		s.extra("interval", s.ivHits)
	case s.ivHint != "":
		c.Interval = s.ivHint
		s.reason("interval: %s, so a week-length average counts weeks", c.Interval)
	case rng != "":
		c.Interval = defaultInterval[rng]
		s.reason("interval: not stated; %s suits a %s range", c.Interval, rng)
	default:
		c.Interval = "1D"
		s.reason("interval: not stated; 1D (the API default)")
	}
	if rng != "" {
		if bars, ok := chart.Bars(rng, c.Interval); ok && bars > chart.MaxBars {
			s.warn("%s bars over %s is about %d bars; the API draws about %d, so the oldest part will be cut (use a longer interval)", c.Interval, rng, bars, chart.MaxBars)
		}
	}

	// size
	w, h, why := s.width, s.height, s.sizeWhy
	if req.Prefs.Resolution != "" {
		ws, hs, _ := strings.Cut(req.Prefs.Resolution, "x")
		w, _ = strconv.Atoi(ws)
		h, _ = strconv.Atoi(hs)
		why = "preferences"
	}
	if w == 0 && h == 0 {
		w, h = chart.DefaultWidth, chart.DefaultHeight
		s.reason("size: not stated; %dx%d (the API default, allowed on every plan)", w, h)
	} else {
		if w == 0 {
			w = chart.DefaultWidth
		}
		if h == 0 {
			h = chart.DefaultHeight
		}
		top := chart.Plans[len(chart.Plans)-1]
		if w > top.MaxWidth || h > top.MaxHeight {
			nw, nh := min(w, top.MaxWidth), min(h, top.MaxHeight)
			s.warn("%dx%d is above every plan's maximum (%dx%d); %dx%d is used", w, h, top.MaxWidth, top.MaxHeight, nw, nh)
			w, h = nw, nh
		}
		if w < chart.MinWidth || h < chart.MinHeight {
			nw, nh := max(w, chart.MinWidth), max(h, chart.MinHeight)
			s.warn("%dx%d is below the API minimum (%dx%d); %dx%d is used", w, h, chart.MinWidth, chart.MinHeight, nw, nh)
			w, h = nw, nh
		}
		s.reason("size: %q → %dx%d", why, w, h)
	}
	c.Width, c.Height = w, h
	n := len(c.Studies) + len(c.Drawings)
	if p, ok := chart.SmallestPlanFor(w, h, n); ok && p.Name != "BASIC" {
		s.reason("plan: %dx%d with %d studies+drawings needs %s or higher", w, h, n, p.Name)
	} else if !ok {
		s.warn("%d studies+drawings exceed every plan's limit (ENTERPRISE allows %d)", n, chart.Plans[len(chart.Plans)-1].MaxParameters)
	}

	switch {
	case req.Prefs.Theme != "":
		if s.theme != "" && s.theme != req.Prefs.Theme {
			s.reason("theme: preferences (%s) override the text (%s)", req.Prefs.Theme, s.theme)
		} else {
			s.reason("theme: %s from preferences", req.Prefs.Theme)
		}
		c.Theme = req.Prefs.Theme
	case s.theme != "":
		c.Theme = s.theme
	default:
		c.Theme = "light"
	}
	if s.style == "" {
		s.style = "candle"
	}
	c.Style = s.style
	c.Scale, c.Session, c.Format = s.scale, s.session, s.format
	if len(s.tickers) > 0 && c.Symbol != "" {
		s.warn("%s looked like a ticker but %s is charted (one symbol per chart)", strings.Join(s.tickers, ", "), c.Symbol)
	}
}

func (s *state) extra(what string, hits []hit) {
	seen := map[string]bool{hits[0].value: true}
	var others []string
	for _, h := range hits[1:] {
		if !seen[h.value] {
			seen[h.value] = true
			others = append(others, fmt.Sprintf("%q", h.phrase))
		}
	}
	if len(others) > 0 {
		s.warn("several %ss stated; %s is used, %s ignored", what, hits[0].value, strings.Join(others, ", "))
	}
}

func (s *state) resolveSymbol(req Request) {
	c := &s.res.Config
	exch := strings.ToUpper(strings.TrimSpace(req.Exchange))
	if exch == "" && len(s.exchanges) > 0 {
		exch = s.exchanges[0]
	}
	if sym := strings.TrimSpace(req.Symbol); sym != "" {
		switch {
		case strings.Contains(sym, ":"):
			c.Symbol = strings.ToUpper(sym)
			s.reason("symbol: %s as given", c.Symbol)
		default:
			sub := &state{b: s.b}
			var toks [8]token
			sub.match(lex(sym, toks[:0]))
			sub.rest()
			if len(sub.symbols) > 0 && req.Exchange == "" {
				c.Symbol = sub.symbols[0].value
				s.reason("symbol: %q → %s", sym, c.Symbol)
			} else if len(sub.symObjs) > 0 && sub.symObjs[0].crypto {
				c.Symbol = s.rehome(sub.symObjs[0], exch)
				s.reason("symbol: %q on %s → %s", sym, exch, c.Symbol)
			} else if exch != "" {
				c.Symbol = exch + ":" + strings.ToUpper(sym)
				s.reason("symbol: %q with exchange %s → %s", sym, exch, c.Symbol)
			} else if len(sub.symbols) > 0 {
				c.Symbol = sub.symbols[0].value
			} else {
				s.warn("symbol %q has no known exchange; pass exchange (see get_exchanges) or EXCHANGE:SYMBOL", sym)
			}
		}
		if c.Symbol != "" {
			if len(s.symbols) > 0 && s.symbols[0].value != c.Symbol {
				s.reason("symbol: the symbol argument overrides %q in the text", s.symbols[0].phrase)
			}
			return
		}
	}
	if len(s.symbols) > 0 {
		h := s.symbols[0]
		c.Symbol = h.value
		// a named crypto moves to the exchange the user named ("bitcoin on Coinbase")
		if len(s.symObjs) > 0 && s.symObjs[0].full == h.value && exch != "" {
			if s.symObjs[0].crypto {
				c.Symbol = s.rehome(s.symObjs[0], exch)
			} else if ex, _, _ := strings.Cut(h.value, ":"); ex != exch {
				s.warn("%s is listed as %s; exchange %s was not applied", s.symObjs[0].name, h.value, exch)
			}
		}
		s.reason("symbol: %q → %s", h.phrase, c.Symbol)
		var others []string
		for _, o := range s.symbols[1:] {
			if o.value != h.value {
				others = append(others, o.value)
			}
		}
		if len(others) > 0 {
			sort.Strings(others)
			s.warn("one symbol per chart: %s is charted, %s ignored (a ratio can be charted as a formula, e.g. %s/%s)", c.Symbol, strings.Join(others, ", "), c.Symbol, others[0])
		}
		return
	}
	if len(s.tickers) > 0 {
		t := s.tickers[0]
		s.tickers = s.tickers[1:]
		if exch != "" {
			c.Symbol = exch + ":" + t
			s.reason("symbol: ticker %s on %s → %s", t, exch, c.Symbol)
			return
		}
		s.warn("ticker %s has no known exchange; pass exchange (e.g. NASDAQ, NYSE; see get_exchanges) or symbol EXCHANGE:%s", t, t)
		return
	}
	if exch != "" {
		s.warn("exchange %s was named but no symbol; pass symbol or name one (see get_symbols)", exch)
		return
	}
	s.warn("no symbol recognised; name one (e.g. \"AAPL\", \"bitcoin\") or pass symbol as EXCHANGE:SYMBOL — without it the API draws BINANCE:BTCUSDT")
}

func (s *state) rehome(sym *symbol, exch string) string {
	if exch == "" {
		return sym.full
	}
	q, ok := cryptoQuote[exch]
	if !ok {
		q = "USDT"
		s.warn("quote currency on %s is not known; %s%s assumed (check with get_symbols)", exch, sym.base, q)
	}
	return exch + ":" + sym.base + q
}
