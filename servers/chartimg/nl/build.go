// Package nl turns a chart request in plain English into a chart-img v2 request
// body, deterministically: a small lexer (numbers as digits or words, units,
// plurals), a phrase dictionary built from the documented indicator names plus
// aliases, and rules that attach numbers to the indicator, range or interval next
// to them. Whatever it cannot resolve becomes a warning, never a silent guess.
package nl

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// Preferences override what the text says.
type Preferences struct {
	Theme      string `json:"theme,omitempty" mcp:"enum=light|dark"`
	Resolution string `json:"resolution,omitempty" mcp:"pattern=^[0-9]{3,4}x[0-9]{3,4}$"`
	Interval   string `json:"interval,omitempty" mcp:"enum=1m|2m|3m|5m|15m|30m|45m|1h|2h|3h|4h|6h|8h|12h|1D|2D|3D|1W|1M|3M|6M|1Y"`
	Range      string `json:"range,omitempty" mcp:"enum=1D|5D|1M|3M|6M|1Y|5Y|ALL|DTD|WTD|MTD|YTD"`
}

// Request is what construct_chart_config receives.
type Request struct {
	Text     string
	Symbol   string
	Exchange string
	Prefs    Preferences
	// Structured fields (structured.go): they win over the text, and each
	// difference from what the text said is a warning.
	Studies  []StudySpec   `json:",omitempty"`
	Drawings []DrawingSpec `json:",omitempty"`
	Timezone string        `json:",omitempty"`
}

// Result is the config plus how it was reached.
type Result struct {
	Config    chart.Config `json:"config"`
	Reasoning []string     `json:"reasoning"`
	Warnings  []string     `json:"warnings"`
	// Errors are structured fields that cannot be sent (an unknown study,
	// input key or timezone); the config is not to be used when any.
	Errors []FieldError `json:"errors,omitempty"`
}

// Builder holds the dictionary built from one copy of the docs.
type Builder struct {
	docs      *docsparse.Docs
	dict      dict
	intervals []string
	ranges    []string
	ivMinutes []int
	exchanges map[string]bool // exchange ids, for EXCHANGE:SYMBOL written in any case
	typoKeys  [][]string      // by length: symbol and indicator words a misspelling may be corrected to
	inds      map[string]*indInfo
	zones     []string        // the docs' supported timezones
	crypto    map[string]bool // exchanges that never close (crypto)
	// Now is the clock a span such as "last 7 days" is measured back from
	// (time.Now; tests fix it).
	Now func() time.Time
}

// New builds the dictionary from the docs (names, inputs, value sets).
func New(d *docsparse.Docs) *Builder {
	b := &Builder{docs: d, dict: buildDict(d.IndicatorNames(), d.Parameters.Timezones), intervals: d.Parameters.Intervals, ranges: d.Parameters.Ranges, Now: time.Now}
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
	b.exchanges = map[string]bool{}
	for _, e := range d.Exchanges {
		b.exchanges[e.ID] = true
	}
	for _, e := range exchangeNames {
		b.exchanges[e[1]] = true
	}
	for id := range cryptoQuote {
		b.exchanges[id] = true
	}
	for k, ps := range b.dict {
		for _, p := range ps {
			if len(k) >= 6 && (p.e.kind == kSymbol || p.e.kind == kIndicator) && isAlpha(k) {
				for len(b.typoKeys) <= len(k) {
					b.typoKeys = append(b.typoKeys, nil)
				}
				b.typoKeys[len(k)] = append(b.typoKeys[len(k)], k)
				break
			}
		}
	}
	for _, ks := range b.typoKeys {
		sort.Strings(ks)
	}
	b.crypto = map[string]bool{}
	for _, e := range d.Exchanges {
		if strings.HasPrefix(e.Category, "Crypto") {
			b.crypto[e.ID] = true
		}
	}
	for id := range cryptoQuote {
		b.crypto[id] = true
	}
	for _, z := range d.Parameters.Timezones {
		b.zones = append(b.zones, z.Name)
	}
	b.inds = make(map[string]*indInfo, len(d.Indicators))
	for _, in := range d.Indicators {
		if ind, ok := d.Indicator(in.Name); ok && b.inds[in.Name] == nil {
			b.inds[in.Name] = newIndInfo(ind)
		}
	}
	return b
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// typo finds the one symbol or indicator word within one edit (a letter added,
// dropped, changed or two swapped) of an unknown word of 6+ letters: "bitcion",
// "bolinger", "etherium". Short words are never corrected ("stock" is not "stoch").
func (b *Builder) typo(w string) (string, bool) {
	if len(w) < 6 {
		return "", false
	}
	found := ""
	for n := len(w) - 1; n <= len(w)+1 && n < len(b.typoKeys); n++ {
		for _, k := range b.typoKeys[n] {
			if !oneEdit(w, k) {
				continue
			}
			if found != "" && found != k {
				return "", false // ambiguous: no guess
			}
			found = k
		}
	}
	return found, found != ""
}

// oneEdit reports whether a and b differ by one insertion, deletion, substitution or adjacent swap.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return len(b) == len(a)+1 && a[i:] == b[i+1:]
}

// isIndicatorWord reports whether w starts an indicator phrase (RSI, EMA, BB…).
func (b *Builder) isIndicatorWord(w string) bool {
	for _, p := range b.dict[w] {
		if p.e.kind == kIndicator {
			return true
		}
	}
	return glueable[w]
}

type item struct {
	kind  kind
	value string
	sym   *symbol
	tok   token
	used  bool
	// owned: a number in the settings of the multi-input study before it,
	// though another study's name follows ("MACD 12,26,9 RSI 14")
	owned bool
	// interval: a glued one-letter day or week unit that names a chart
	// interval ("1D", "2D", "3D", "1W"), never a study's length: "ETH 1D
	// RSI" is a daily chart with RSI, not RSI(1)
	interval bool
}

type numArg struct {
	v     float64
	isInt bool
	role  string
}

type hit struct {
	value  string
	phrase string
	// pair: a written base/quote pair (BTCUSDT, EUR/USD) whose exchange was
	// only the default home; an exchange named in the text replaces it
	pair bool
	// a range span the enum does not name: spanN spanUnit back from now,
	// sent as {from,to}
	spanN    float64
	spanUnit string
	// stated dates (spanUnit "dates"): from, and to unless it is now
	from, to time.Time
	// calendar: a day span already in calendar days ("3 trading days" sent
	// as the 5 calendar days that hold them, "calendar days")
	calendar bool
}

type state struct {
	b          *Builder
	items      []item
	res        Result
	symbols    []hit // EXCHANGE:TICKER candidates in text order
	symObjs    []*symbol
	exchanges  []string
	tickers    []string
	rangeHits  []hit
	ivHits     []hit
	width      int
	height     int
	sizeWhy    string
	theme      string
	style      string
	scale      string
	session    string
	timezone   string
	smoothings []smoothing // study smoothing lines read before the studies exist
	pending    []pendingLevels
	format     string
	ivHint     string
	shouting   bool // no lower-case letters: capitals mark nothing
}

// states keeps parse states for reuse: a state and its items, hits and
// symbols are scratch (nothing in a Result points into them), so a call
// reuses their room instead of allocating it.
var states = sync.Pool{New: func() any { return new(state) }}

// reset makes s a fresh state for b, keeping the room of its scratch slices.
func (s *state) reset(b *Builder) {
	items, symbols, symObjs, exchanges, tickers, rangeHits, ivHits :=
		s.items[:0], s.symbols[:0], s.symObjs[:0], s.exchanges[:0], s.tickers[:0], s.rangeHits[:0], s.ivHits[:0]
	*s = state{b: b, res: Result{Reasoning: make([]string, 0, 8), Warnings: []string{}},
		items: items, symbols: symbols, symObjs: symObjs, exchanges: exchanges, tickers: tickers, rangeHits: rangeHits, ivHits: ivHits}
}

// Build turns the request into a config. It never fails: problems are warnings.
func (b *Builder) Build(req Request) Result {
	s := states.Get().(*state)
	defer states.Put(s)
	s.reset(b)
	s.shouting = !hasLower(req.Text)
	text := s.extract(req.Text)
	var toks [48]token
	s.match(lex(text, toks[:0]))
	s.markGluedIntervals()
	s.studySmoothing()
	s.levelsBefore()
	s.indicators()
	s.applyPendingLevels()
	s.lengthLikeLevel()
	s.dropRedundantCross()
	s.applySmoothings()
	s.drawingsAndSize()
	s.time()
	s.rest()
	s.structured(req)
	s.finish(req)
	return s.res
}

// markGluedIntervals sets item.interval on the units of "1D", "2D", "3D" and
// "1W" (TradingView's own interval labels, as idea titles write them:
// "ETHUSDT 1D Ichimoku"), so they are not read as "N-day" study lengths.
func (s *state) markGluedIntervals() {
	for i := 1; i < len(s.items); i++ {
		it, n := &s.items[i], &s.items[i-1]
		if it.kind != kUnit || !it.tok.compact || len(it.tok.orig) != 1 || n.kind != kNum {
			continue
		}
		if it.value == "day" && (n.tok.num == 1 || n.tok.num == 2 || n.tok.num == 3) || it.value == "week" && n.tok.num == 1 {
			it.interval = true
		}
	}
}

func hasDigit(t string) bool {
	for i := 0; i < len(t); i++ {
		if isDigit(t[i]) {
			return true
		}
	}
	return false
}

func hasLower(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] >= 'a' && t[i] <= 'z' {
			return true
		}
	}
	return false
}

func (s *state) reason(f string, a ...any) {
	s.res.Reasoning = append(s.res.Reasoning, fmt.Sprintf(f, a...))
}

// addReason adds a reasoning line as it is.
func (s *state) addReason(line string) { s.res.Reasoning = append(s.res.Reasoning, line) }

// reasonQuoted adds the line head + %q of said + " → " + value, as
// reason would print it, in one allocation.
func (s *state) reasonQuoted(head, said, value string) {
	var buf [128]byte
	b := append(buf[:0], head...)
	b = appendQuoted(b, said)
	b = append(b, " → "...)
	b = append(b, value...)
	s.res.Reasoning = append(s.res.Reasoning, string(b))
}

// defaultSizeReason is the size line when the text names none.
var defaultSizeReason = "size: not stated; " + strconv.Itoa(chart.DefaultWidth) + "x" + strconv.Itoa(chart.DefaultHeight) +
	" (the API default, allowed on every plan)"

func (s *state) warn(f string, a ...any) {
	s.res.Warnings = append(s.res.Warnings, fmt.Sprintf(f, a...))
}

func blank(text string, loc []int) string {
	return text[:loc[0]] + strings.Repeat(" ", loc[1]-loc[0]) + text[loc[1]:]
}

// extract takes out EXCHANGE:SYMBOL, A/B pairs (EUR/USD, BTC-USD: Yahoo
// style) and WxH sizes, found by the scanners in scan.go.
func (s *state) extract(text string) string {
	var buf [8]match
	if strings.IndexByte(text, ':') >= 0 {
		for _, m := range findAll(text, 4, explicitAt, buf[:0]) {
			ex := text[m[2]:m[3]]
			known := s.b.exchanges[strings.ToUpper(ex)]
			caps := ex == strings.ToUpper(ex)
			if !known && (!caps || s.b.isIndicatorWord(strings.ToLower(ex))) {
				// "RSI:14" is an indicator with a length, "Theme:dark" a label
				text = text[:m[3]] + " " + text[m[3]+1:]
				continue
			}
			sym := strings.ToUpper(text[m[0]:m[1]])
			s.symbols = append(s.symbols, hit{value: sym, phrase: text[m[0]:m[1]]})
			text = blank(text, m[:2])
		}
	}
	if strings.IndexByte(text, '/') >= 0 || strings.IndexByte(text, '-') >= 0 {
		for _, m := range findAll(text, 8, pairAt, buf[:0]) {
			a, q := strings.ToLower(text[m[2]:m[3]]), strings.ToLower(text[m[4]:m[5]])
			if full, ok := s.pair(a, q); ok {
				s.symbols = append(s.symbols, hit{value: full, phrase: text[m[0]:m[1]], pair: true})
				text = blank(text, m[:2])
			}
		}
	}
	if m := findAll(text, 1, sizeAt, buf[:0]); len(m) > 0 {
		m := m[0]
		s.width, _ = strconv.Atoi(text[m[2]:m[3]])
		s.height, _ = strconv.Atoi(text[m[4]:m[5]])
		s.sizeWhy = strings.TrimSpace(text[m[0]:m[1]])
		text = blank(text, m[:2])
	}
	if hasDigit(text) {
		text = s.dates(text)
	}
	return text
}

// phrases are the dictionary's phrases starting with t: a number's key is
// "#" and its digits as written, looked up without building that string.
func (d dict) phrases(t token) []phrase {
	if t.kind != tNum {
		return d[t.word]
	}
	var buf [32]byte
	return d[string(append(append(buf[:0], '#'), t.orig...))]
}

// keyIs reports whether t is the phrase word w (see phrases).
func keyIs(t token, w string) bool {
	if t.kind != tNum {
		return t.word == w
	}
	return len(w) == len(t.orig)+1 && w[0] == '#' && w[1:] == t.orig
}

func (s *state) match(toks []token) {
	if cap(s.items) < len(toks) {
		s.items = make([]item, 0, len(toks))
	}
	s.items = s.items[:0]
	// the words a misspelt token was read as: a reading that comes back to
	// one of them is a cycle ("williams" ↔ "william" when neither starts a
	// phrase here), which used to loop forever
	var triedBuf [4]string
	tried, triedAt, warnMark := triedBuf[:0], -1, 0
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.kind == tOpen || t.kind == tClose {
			s.items = append(s.items, item{kind: kParen, tok: t})
			i++
			continue
		}
		matched := false
		for _, p := range s.b.dict.phrases(t) {
			if i+len(p.words) > len(toks) {
				continue
			}
			ok := true
			for j := 1; j < len(p.words); j++ {
				if !keyIs(toks[i+j], p.words[j]) {
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
			// a phrase overlapping a longer one that starts inside it yields: "the nasdaq 100"
			// is "the" + "nasdaq 100", not "the nasdaq" + 100
			if len(p.words) > 1 && s.reachesFurther(toks, i, i+len(p.words)) {
				continue // a shorter phrase here, or none
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
		if t.kind == tWord {
			if triedAt != i {
				tried, triedAt, warnMark = append(tried[:0], t.word), i, len(s.res.Warnings)
			}
			if fixed, ok := s.b.typo(t.word); ok {
				if !slices.Contains(tried, fixed) {
					s.warn("read %q as %q", t.orig, fixed)
					toks[i].word = fixed
					tried = append(tried, fixed)
					continue // match again with the corrected word
				}
				// a cycle: the word as written, unknown, and no readings of it
				t.word = tried[0]
				toks[i].word = t.word
				s.res.Warnings = s.res.Warnings[:warnMark]
			}
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

// reachesFurther reports whether a phrase starting inside toks[start+1:end] ends after end.
func (s *state) reachesFurther(toks []token, start, end int) bool {
	for k := start + 1; k < end; k++ {
		for _, p := range s.b.dict.phrases(toks[k]) {
			e := k + len(p.words)
			if e <= end || e > len(toks) {
				continue
			}
			ok := true
			for j := 1; j < len(p.words); j++ {
				if !keyIs(toks[k+j], p.words[j]) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
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

func (s *state) finish(req Request) {
	c := &s.res.Config
	s.resolveSymbol(req)

	// range, then interval (preferences first)
	switch {
	case req.Prefs.Range != "":
		c.Range = req.Prefs.Range
		s.addReason("range: " + req.Prefs.Range + " from preferences")
	case len(s.rangeHits) > 0 && s.rangeHits[0].spanUnit != "":
		h := s.rangeHits[0]
		to := s.b.Now().UTC().Truncate(time.Second)
		from := spanFrom(to, h.spanN, h.spanUnit)
		if h.spanUnit == "dates" {
			from = h.from
			if !h.to.IsZero() {
				to = h.to
			}
		}
		if n := int(h.spanN); h.spanUnit == "day" && !h.calendar && float64(n) == h.spanN && n >= 2 && n < 7 && s.b.closes(c.Symbol) {
			var days []time.Time
			from, days = sessionsFrom(to, n)
			c.Range = map[string]any{"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}
			s.addReason(sessionSpan(h.phrase, c.Symbol, n, from, to, days))
			s.extra("range", s.rangeHits)
			break
		}
		c.Range = map[string]any{"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}
		why := "} (no range code names this span, so it is sent exactly)"
		if h.spanUnit == "dates" {
			why = "} (the dates as stated, sent exactly)"
		}
		s.reasonQuoted("range: ", h.phrase, "{from: "+from.Format(time.RFC3339)+", to: "+to.Format(time.RFC3339)+why)
		s.extra("range", s.rangeHits)
	case len(s.rangeHits) > 0:
		c.Range = s.rangeHits[0].value
		s.reasonQuoted("range: ", s.rangeHits[0].phrase, s.rangeHits[0].value)
		s.extra("range", s.rangeHits)
	}
	rng, _ := c.Range.(string)
	spanDays := 0.0
	if obj, ok := c.Range.(map[string]any); ok {
		f, _ := time.Parse(time.RFC3339, obj["from"].(string))
		t, _ := time.Parse(time.RFC3339, obj["to"].(string))
		spanDays = t.Sub(f).Hours() / 24
	}
	switch {
	case req.Prefs.Interval != "":
		c.Interval = req.Prefs.Interval
		s.addReason("interval: " + c.Interval + " from preferences")
	case len(s.ivHits) > 0:
		c.Interval = s.ivHits[0].value
		s.reasonQuoted("interval: ", s.ivHits[0].phrase, c.Interval)
		s.extra("interval", s.ivHits)
	case s.ivHint != "":
		c.Interval = s.ivHint
		s.addReason("interval: " + c.Interval + ", so a week-length average counts weeks")
	case rng != "":
		c.Interval = defaultInterval[rng]
		s.addReason("interval: not stated; " + c.Interval + " suits a " + rng + " range")
	case spanDays > 0:
		c.Interval = spanInterval(spanDays)
		s.addReason("interval: not stated; " + c.Interval + " suits a " + strconv.FormatFloat(math.Round(spanDays*10)/10, 'f', -1, 64) + "-day range")
	default:
		c.Interval = "1D"
		s.addReason("interval: not stated; 1D (the API default)")
	}
	if rng != "" {
		if bars, ok := chart.Bars(rng, c.Interval); ok && bars > chart.MaxBars {
			s.warn("%s bars over %s is about %d bars; the API draws about %d, so the oldest part will be cut (use a longer interval)", c.Interval, rng, bars, chart.MaxBars)
		}
	}
	if m, ok := chart.IntervalMinutes(c.Interval); ok && spanDays > 0 {
		if bars := int(spanDays * 1440 / float64(m)); bars > chart.MaxBars {
			s.warn("%s bars over %s is about %d bars; the API draws about %d, so the oldest part will be cut (use a longer interval)", c.Interval, s.rangeHits[0].phrase, bars, chart.MaxBars)
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
		s.addReason(defaultSizeReason)
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
		s.reasonQuoted("size: ", why, strconv.Itoa(w)+"x"+strconv.Itoa(h))
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
			s.addReason("theme: " + req.Prefs.Theme + " from preferences")
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
	c.Timezone = s.timezone
	if len(s.tickers) > 0 && c.Symbol != "" {
		s.warn("%s looked like a ticker but %s is charted (one symbol per chart)", strings.Join(s.tickers, ", "), c.Symbol)
	}
}

func (s *state) extra(what string, hits []hit) {
	// a span sent as {from,to} has no code: it is named by what was said
	key := func(h hit) string {
		if h.value == "" {
			return "\x00" + h.phrase
		}
		return h.value
	}
	seen := map[string]bool{key(hits[0]): true}
	var others []string
	for _, h := range hits[1:] {
		if !seen[key(h)] {
			seen[key(h)] = true
			others = append(others, fmt.Sprintf("%q", h.phrase))
		}
	}
	if len(others) > 0 {
		used := hits[0].value
		if used == "" {
			used = strconv.Quote(hits[0].phrase)
		}
		s.warn("several %ss stated; %s is used, %s ignored", what, used, strings.Join(others, ", "))
	}
}
