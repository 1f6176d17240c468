package nl

// Settings that belong to a study, kept inside it: its own levels ("RSI
// levels at 80 and 20" → the RSI's UpperLimit.value/LowerLimit.value
// overrides, not two price lines on the main pane) and its smoothing line
// ("RSI 14 with its 9-period EMA smoothing" → smoothingLine EMA,
// smoothingLength 9, not an EMA of price). Both come from the docs' tables:
// the study's override table (docsparse.Indicator.Levels) and its input
// table (smoothingLine with its options, smoothingLength with its bounds).

import (
	"math"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

const (
	upperLevel = "UpperLimit.value"
	lowerLevel = "LowerLimit.value"
)

// smoothing is a smoothing line read for a study, applied once its study exists.
type smoothing struct {
	study, line, said string
	length            float64
	hasLength         bool
}

// maLine is the smoothingLine option each moving-average study stands for.
var maLine = map[string]string{"Moving Average": "SMA", "Moving Average Exponential": "EMA", "Moving Average Weighted": "WMA"}

// studyOwner is the nearest study named before item i (within a few items)
// whose documented inputs or overrides satisfy has, or nil.
func (s *state) studyOwner(i int, has func(*docsparse.Indicator) bool) *item {
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		it := s.at(j)
		if it.kind == kSymbol || it.kind == kParen {
			return nil
		}
		if it.kind == kIndicator {
			if ind, ok := s.b.docs.Indicator(it.value); ok && has(ind) {
				return it
			}
			return nil
		}
	}
	return nil
}

func hasInput(key string) func(*docsparse.Indicator) bool {
	return func(ind *docsparse.Indicator) bool {
		for _, in := range ind.Inputs {
			if in.Key == key {
				return true
			}
		}
		return false
	}
}

func hasLevels(ind *docsparse.Indicator) bool {
	up, low := false, false
	for _, l := range ind.Levels() {
		up = up || l.Key == upperLevel
		low = low || l.Key == lowerLevel
	}
	return up && low
}

// smoothingWord reports a word that says "smoothing": the role word, or
// "smoothed".
func smoothingWord(it *item) bool {
	return it.kind == kRole && it.value == "smooth" || it.kind == kWord && strings.HasPrefix(it.tok.word, "smooth")
}

// studySmoothing runs before the studies are built: a moving average named
// with a smoothing word right after a study that has a smoothingLine input
// is that study's smoothing, and its number the smoothingLength.
func (s *state) studySmoothing() {
	for i := range s.items {
		it := &s.items[i]
		line, ok := maLine[it.value]
		if it.kind != kIndicator || !ok {
			continue
		}
		word := -1
		if smoothingWord(s.at(i + 1)) {
			word = i + 1
		} else {
			// before it, past fillers and its length: "smoothed with a 9 EMA", "smoothing EMA"
			for k := i - 1; k >= 0 && k >= i-4; k-- {
				p := s.at(k)
				if smoothingWord(p) {
					word = k
					break
				}
				if p.kind != kFiller && p.kind != kNum && !s.paramUnit(p) {
					break
				}
			}
		}
		if word < 0 {
			continue
		}
		owner := s.studyOwner(min(i, word), hasInput("smoothingLine"))
		if owner == nil {
			continue
		}
		ind, _ := s.b.docs.Indicator(owner.value)
		if !optionOf(ind, "smoothingLine", line) {
			continue
		}
		sm := smoothing{study: owner.value, line: line, said: it.tok.orig}
		// its length: "9-period EMA smoothing", "9 EMA", or after the word: "EMA smoothing 9", "smoothing of 9"
		j := i - 1
		for j >= 0 && s.paramUnit(s.at(j)) {
			j--
		}
		if n := s.at(j); n.kind == kNum && !n.used && (word > i || j > word) {
			sm.length, sm.hasLength, n.used = n.tok.num, true, true
		} else {
			k := max(i, word) + 1
			for s.at(k).kind == kFiller || s.at(k).kind == kOn || s.paramUnit(s.at(k)) {
				k++
			}
			if n := s.at(k); n.kind == kNum && !n.used {
				sm.length, sm.hasLength, n.used = n.tok.num, true, true
			}
		}
		for k := min(i, word); k <= max(i, word); k++ {
			s.items[k].used, s.items[k].kind = true, kFiller
		}
		s.smoothings = append(s.smoothings, sm)
	}
}

func optionOf(ind *docsparse.Indicator, key, v string) bool {
	for _, in := range ind.Inputs {
		if in.Key == key {
			for _, o := range in.Options {
				if o == v {
					return true
				}
			}
		}
	}
	return false
}

// applySmoothings sets the smoothing read by studySmoothing on its study.
func (s *state) applySmoothings() {
	for _, sm := range s.smoothings {
		st := s.lastStudy(sm.study)
		if st == nil {
			continue
		}
		ind, _ := s.b.docs.Indicator(sm.study)
		if st.Input == nil {
			st.Input = map[string]any{}
		}
		st.Input["smoothingLine"] = sm.line
		why := "{smoothingLine=" + sm.line
		if sm.hasLength {
			if in := inputOf(ind, "smoothingLength"); in != nil && (in.Min != nil && sm.length < *in.Min || in.Max != nil && sm.length > *in.Max || sm.length != math.Trunc(sm.length)) {
				s.warn("%s smoothingLength=%g is outside the documented %s or not a whole number; the default is used", sm.study, sm.length, bounds(*in))
			} else {
				st.Input["smoothingLength"] = int(sm.length)
				why += ", smoothingLength=" + strconv.Itoa(int(sm.length))
			}
		}
		s.reasonQuoted("study setting: ", sm.said+" smoothing", sm.study+" "+why+"} (the study's own smoothing line, not a moving average of price)")
	}
}

func inputOf(ind *docsparse.Indicator, key string) *docsparse.Input {
	for i := range ind.Inputs {
		if ind.Inputs[i].Key == key {
			return &ind.Inputs[i]
		}
	}
	return nil
}

func (s *state) lastStudy(name string) *chart.Study {
	for k := len(s.res.Config.Studies) - 1; k >= 0; k-- {
		if s.res.Config.Studies[k].Name == name {
			return &s.res.Config.Studies[k]
		}
	}
	return nil
}

// studyLevels reads "levels at 80 and 20", "overbought 75", "oversold at 25"
// after a study that draws its own upper and lower levels as those
// overrides. It reports whether it took the drawing word.
func (s *state) studyLevels(i int, it *item) bool {
	over, under := it.value == "Overbought", it.value == "Oversold"
	if !(it.value == "" && it.tok.word == "level") && !over && !under {
		return false
	}
	owner := s.studyOwner(i, hasLevels)
	if owner == nil && (over || under) {
		// "RSI with overbought 75 and oversold 25": past the other level word
		for j := i - 1; j >= 0 && j >= i-8 && owner == nil; j-- {
			if p := s.at(j); p.kind == kDrawing && (p.value == "Overbought" || p.value == "Oversold") {
				owner = s.studyOwner(j, hasLevels)
			}
		}
	}
	if owner == nil {
		return false
	}
	var nums []*item
	j := i + 1
	for s.at(j).kind == kAt || s.at(j).kind == kFiller {
		j++
	}
	for s.at(j).kind == kNum && !s.at(j).used && len(nums) < 3 {
		nums = append(nums, s.at(j))
		j++
		if s.at(j).kind == kAnd && s.at(j+1).kind == kNum {
			j++
		}
	}
	return s.setLevels(it, owner, nums, over, under)
}

// pendingLevels are levels written before their word ("RSI(14) with 70/30
// levels"), kept from the study's length reading and set once the study exists.
type pendingLevels struct {
	word, owner *item
	nums        []*item
}

// levelsBefore runs before the studies are built: numbers right before a
// "levels" word, after a study that draws its own levels, are those levels
// ("RSI with 70/30 levels", "stoch 80 20 levels"), not more RSI lengths.
func (s *state) levelsBefore() {
	for i := range s.items {
		it := &s.items[i]
		if it.kind != kDrawing || it.value != "" || it.tok.word != "level" {
			continue
		}
		var nums []*item
		j := i - 1
		for j >= 0 && len(nums) < 3 {
			if n := s.at(j); n.kind == kNum && !n.used {
				nums = append([]*item{n}, nums...)
				j--
				if s.at(j).kind == kAnd && s.at(j-1).kind == kNum {
					j--
				}
				continue
			}
			break
		}
		if len(nums) != 2 {
			continue
		}
		var owner *item
		for k := j; k >= 0 && k >= j-8; k-- {
			p := s.at(k)
			if p.kind == kSymbol {
				break
			}
			if p.kind == kIndicator {
				if ind, ok := s.b.docs.Indicator(p.value); ok && hasLevels(ind) {
					owner = p
				}
				break
			}
		}
		if owner == nil {
			continue
		}
		for _, n := range nums {
			n.used = true
		}
		it.used = true
		s.pending = append(s.pending, pendingLevels{word: it, owner: owner, nums: nums})
	}
}

// applyPendingLevels sets the levels levelsBefore kept.
func (s *state) applyPendingLevels() {
	for _, p := range s.pending {
		for _, n := range p.nums {
			n.used = false
		}
		if !s.setLevels(p.word, p.owner, p.nums, false, false) {
			for _, n := range p.nums {
				n.used = false // left for the price-line reading
			}
			p.word.used = false
		}
	}
}

// setLevels sets the owner study's level overrides from nums (one or two
// numbers; over/under: the one level named).
func (s *state) setLevels(it, owner *item, nums []*item, over, under bool) bool {
	st := s.lastStudy(owner.value)
	if st == nil {
		return false
	}
	ind, _ := s.b.docs.Indicator(owner.value)
	if len(nums) == 0 || len(nums) > 2 || (over || under) && len(nums) != 1 {
		return false
	}
	def := map[string]float64{}
	var lv = map[string]docsparse.Input{}
	for _, l := range ind.Levels() {
		lv[l.Key] = l
		if f, ok := l.Default.(float64); ok {
			def[l.Key] = f
		}
	}
	// a price is no oscillator level: "RSI, level at 65000" on BTC stays a
	// price line. A level is taken within ten times the study's own levels'
	// scale (RSI 70/30: up to 700; Bollinger Bands %B 1/0: up to 10).
	scale := math.Max(math.Max(math.Abs(def[upperLevel]), math.Abs(def[lowerLevel])), 1) * 10
	for _, n := range nums {
		if math.Abs(n.tok.num) > scale {
			return false
		}
	}
	// a study whose documented levels are both negative (Williams %R: -20,
	// -80) is read with the minus the lexer does not keep ("levels -10 and -90")
	negate := def[upperLevel] < 0 && def[lowerLevel] < 0
	vals := make([]float64, len(nums))
	for k, n := range nums {
		vals[k] = n.tok.num
		if negate && vals[k] > 0 {
			vals[k] = -vals[k]
		}
	}
	set := map[string]float64{}
	switch {
	case over:
		set[upperLevel] = vals[0]
	case under:
		set[lowerLevel] = vals[0]
	case len(nums) == 2:
		hi, lo := vals[0], vals[1]
		if hi < lo {
			hi, lo = lo, hi
		}
		set[upperLevel], set[lowerLevel] = hi, lo
	default:
		v := vals[0]
		if math.Abs(v-def[upperLevel]) <= math.Abs(v-def[lowerLevel]) {
			set[upperLevel] = v
		} else {
			set[lowerLevel] = v
		}
	}
	if st.Override == nil {
		st.Override = map[string]any{}
	}
	why := ""
	for _, k := range []string{upperLevel, lowerLevel} {
		v, ok := set[k]
		if !ok {
			continue
		}
		if l := lv[k]; l.Min != nil && v < *l.Min || l.Max != nil && v > *l.Max {
			s.warn("%s %s=%g is outside the documented %s; the default is kept", owner.value, k, v, bounds(l))
			continue
		}
		st.Override[k] = v
		if why != "" {
			why += ", "
		}
		why += k + "=" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, n := range nums {
		n.used = true
	}
	it.used = true
	s.reasonQuoted("study setting: ", it.tok.orig, owner.value+" override {"+why+"} (the study's own levels, not price lines)")
	return true
}

// lengthLikeLevel warns when a study that draws its own levels got a length
// equal to one of those levels' documented values ("RSI 70 rejection": RSI
// at its 70 level, or RSI(70)?): the length reading is kept, and the warning
// says how to ask for the level instead.
func (s *state) lengthLikeLevel() {
	for _, st := range s.res.Config.Studies {
		ind, ok := s.b.docs.Indicator(st.Name)
		if !ok || !hasLevels(ind) || len(ind.Inputs) == 0 {
			continue
		}
		key := ind.Inputs[0].Key
		v, ok := st.Input[key]
		if !ok {
			continue
		}
		for _, l := range ind.Levels() {
			if (l.Key == upperLevel || l.Key == lowerLevel) && samePrinted(l.Default, toFloat(v)) {
				s.warn("%s %s=%v is also its documented %s level; if the level was meant, say \"%s levels %v and …\" (the length is kept)", st.Name, key, v, strings.TrimSuffix(l.Key, ".value"), strings.ToLower(st.Name), v)
				break
			}
		}
	}
}

func toFloat(v any) any {
	if i, ok := v.(int); ok {
		return float64(i)
	}
	return v
}
