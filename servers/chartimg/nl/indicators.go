package nl

// Attaching numbers to indicators: "50 and 200 day MAs", "RSI 21", "MACD(12, 26, 9)",
// "Bollinger Bands with 2.5 standard deviations"; inputs are matched by the documented descriptions.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// paramUnit reports whether an item can sit between a number and an indicator:
// "50-day MA", "20 period EMA", "200 bar SMA", "200-week MA".
func (s *state) paramUnit(it *item) bool {
	switch it.kind {
	case kUnit:
		return (it.value == "day" || it.value == "week") && !it.interval
	case kIntervalCue, kStyleWeak:
		return it.tok.word == "bar" || it.tok.word == "candle"
	case kRole:
		return it.value == "length"
	}
	return false
}

// settingWords turns a "standard deviation" that sets the multiplier of the
// study before it into that parameter word: in "Bollinger Bands with length 20
// and 2.5 standard deviations" it is the bands' width, not a second study.
// It does so only when a number stands right before or after it and the
// words back to that study are all settings (numbers, parameter words, "and",
// fillers), and that study has a multiplier input.
func (s *state) settingWords() {
	for i := range s.items {
		it := &s.items[i]
		if it.kind == kIndicator && s.at(i+1).kind == kRole {
			// "Supertrend with ATR period 10": the ATR names which of the
			// Super Trend's inputs the period is, it is no second study
			if owner := s.settingsOwner(i); owner != nil && builtOn[owner.value][it.value] && s.inSettings(i) {
				it.kind = kFiller
				// "Stoch RSI with RSI length 21": the name picks which length
				if d, ok := namedLength[owner.value][it.value]; ok && s.at(i+1).value == "length" {
					s.at(i + 1).value = "is:" + d
				}
				continue
			}
		}
		if it.kind != kIndicator || it.value != "Standard Deviation" {
			continue
		}
		next := i + 1
		for s.at(next).kind == kFiller {
			next++
		}
		if s.at(i-1).kind != kNum && s.at(next).kind != kNum {
			continue
		}
		owner := s.settingsOwner(i)
		if owner == nil || owner.value == "Standard Deviation" {
			continue
		}
		x, ok := s.b.inds[owner.value]
		if !ok || x.roleInput("mult", make([]bool, len(x.ind.Inputs))) < 0 {
			continue
		}
		it.kind, it.value = kRole, "mult"
	}
}

// settingsOwner is the study whose settings item i stands among: the
// nearest indicator before it with only numbers, parameter words, "and",
// fillers and brackets between; or nil.
func (s *state) settingsOwner(i int) *item {
	j := i - 1
	for j >= 0 {
		k := s.at(j).kind
		if k != kNum && k != kRole && k != kAnd && k != kFiller && k != kAt && k != kParen {
			break
		}
		j--
	}
	if owner := s.at(j); owner.kind == kIndicator {
		return owner
	}
	return nil
}

// inSettings reports whether item i follows its study's settings rather
// than starting a list of studies: settings started ("factor 3, ATR period
// 10") or nothing but fillers between ("with ATR period 10"); "Supertrend
// and ATR period 14" names two studies.
func (s *state) inSettings(i int) bool {
	sawAnd := false
	for j := i - 1; j >= 0; j-- {
		switch s.at(j).kind {
		case kNum, kRole:
			return true
		case kAnd:
			sawAnd = true
		case kIndicator:
			return !sawAnd
		}
	}
	return !sawAnd
}

// builtOn are the studies a study is computed from, whose names people put
// before its parameter words: Super Trend's "ATR period", Keltner Channels'
// "EMA length" and "ATR multiplier", Bollinger Bands' "SMA length", MACD's
// "EMA fast length" (TradingView's built-in definitions of these studies).
var builtOn = map[string]map[string]bool{
	"Super Trend":      {"Average True Range": true},
	"Keltner Channels": {"Average True Range": true, "Moving Average Exponential": true, "Moving Average": true},
	"Bollinger Bands":  {"Moving Average": true, "Standard Deviation": true},
	"MACD":             {"Moving Average Exponential": true, "Moving Average": true},
	"Stochastic RSI":   {"Relative Strength Index": true, "Stochastic": true},
}

// namedLength is the input a built-on study's name picks when it stands
// before a length: Stochastic RSI documents in_0 "length RSI" and in_1
// "length Stoch".
var namedLength = map[string]map[string]string{
	"Stochastic RSI": {"Relative Strength Index": "length rsi", "Stochastic": "length stoch"},
}

// indicators attaches numbers to each indicator: those right before it first
// (so "RSI and 50 EMA" gives 50 to the EMA), then those after it.
func (s *state) indicators() {
	s.settingWords()
	// the numbers before each indicator: pre[k] gives item pre[k].item
	// preArgs[from:to]; all on the stack for the usual few indicators
	var preBuf [8]preNums
	var argBuf [16]numArg
	pre, preArgs := preBuf[:0], argBuf[:0]
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
		var numsBuf [8]numArg
		var idxBuf [8]int
		nums, idx := numsBuf[:0], idxBuf[:0]
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
		if n := s.ownedBefore(j, i); n > 0 {
			// nums is in reverse text order: the first n in text are owned
			if n >= len(nums) {
				continue
			}
			nums, idx = nums[:len(nums)-n], idx[:len(idx)-n]
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
		from := len(preArgs)
		for k := len(nums) - 1; k >= 0; k-- { // text order
			preArgs = append(preArgs, nums[k])
			s.items[idx[k]].used = true
		}
		pre = append(pre, preNums{i, from, len(preArgs)})
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
		before := numsBefore(pre, preArgs, i)
		if n := s.at(j); n.kind == kIndicator && n.value == it.value && len(before) == 0 {
			continue
		}
		if k := s.prevSkipping(i, kFiller); negations[s.at(k).tok.word] && s.at(k).kind == kWord {
			s.reason("indicator: %q not added (%s)", it.tok.orig, s.at(k).tok.orig)
			s.post(i, nil) // its numbers are its own, not another's
			continue
		}
		var afterBuf, numsBuf [8]numArg
		after := s.labelled(i, s.post(i, afterBuf[:0]))
		// "2 EMAs (12 and 26)", "three moving averages 10, 20, 50": a small number before a
		// plural name is a count when the lengths follow
		if len(before) == 1 && before[0].v <= 10 && len(after) > 0 && plural(it.tok.orig) {
			before = nil
		}
		nums := append(append(numsBuf[:0], before...), after...)
		if it.kind == kCross {
			s.cross(it, nums)
			continue
		}
		s.addStudies(it.value, it.tok.orig, nums)
	}
}

// preNums are the numbers before item: preArgs[from:to].
type preNums struct{ item, from, to int }

// numsBefore are the numbers before item i, or none.
// ownedBefore: the numbers before indicator i (a run ending at item j+1..i-1)
// may be the settings of a study with several inputs that starts the run:
// "MACD 12,26,9 RSI 14", "Supertrend 10 3 EMA 200". That study owns as many
// numbers of the run as it has main inputs ("RSI 14, 50 EMA": one); they
// are marked owned and the count of the chain's numbers it owns is returned
// (0: none). A run that starts with "and" is the next study's ("RSI and 50
// EMA").
func (s *state) ownedBefore(j, i int) int {
	// back over the run: numbers, commas and parameter words; a bracket, a
	// filler ("RSI with 200 EMA") or a word such as "and" or "plus" ends it
	k := j
	for k >= 0 {
		it := s.at(k)
		if it.kind == kNum && !it.used || it.kind == kRole || it.kind == kAnd && (it.tok.orig == "" || !isLetter(it.tok.orig[0])) {
			k--
			continue
		}
		break
	}
	own := s.at(k)
	if own.kind != kIndicator || s.at(k+1).kind == kAnd { // "RSI and 50 EMA": the 50 is the EMA's
		return 0
	}
	x, ok := s.b.inds[own.value]
	if !ok || x.primary < 1 {
		return 0
	}
	b := k - 1
	for b >= 0 && s.paramUnit(s.at(b)) {
		b--
	}
	if n := s.at(b); n.kind == kNum && !n.owned { // "20 EMA 50 EMA": its number stands before it
		return 0
	}
	owned, inChain, in := 0, 0, 0
	for m := k + 1; m < i && owned < x.primary; m++ {
		it := s.at(m)
		if it.kind == kAnd && it.tok.orig != "" && isLetter(it.tok.orig[0]) {
			break // "Keltner Channels 14 and 50 ATR": the 50 is the ATR's
		}
		if it.kind != kNum || it.used {
			continue
		}
		// a bare number goes to the next main input: one outside that
		// input's documented range is no setting of this study ("BB 200
		// 200 EMA": the second 200 is the EMA's)
		for in < len(x.ind.Inputs) && (!x.numeric[in] || x.secondary[in]) {
			in++
		}
		if in < len(x.ind.Inputs) && s.at(m-1).kind != kRole {
			if d := x.ind.Inputs[in]; d.Min != nil && it.tok.num < *d.Min || d.Max != nil && it.tok.num > *d.Max {
				break
			}
		}
		in++
		owned++
		it.owned = true
		if m > j {
			inChain++
		}
	}
	return inChain
}

func numsBefore(pre []preNums, preArgs []numArg, i int) []numArg {
	for _, p := range pre {
		if p.item == i {
			return preArgs[p.from:p.to:p.to]
		}
	}
	return nil
}

// plural reports whether an indicator was named in the plural ("EMAs", "moving averages").
func plural(orig string) bool {
	o := strings.ToLower(orig)
	return len(o) > 2 && strings.HasSuffix(o, "s") && !strings.HasSuffix(o, "ss") && !strings.HasSuffix(o, "us") && !strings.HasSuffix(o, "is")
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
func (s *state) post(i int, nums []numArg) []numArg {
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
			if n := len(nums); n > 0 && nums[n-1].role == "" && s.at(j-1).kind == kNum && role == "" && s.namesNumberBefore(j) {
				nums[n-1].role = it.value // "2.5 std", "12 fast 26 slow 9 signal"
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
			if _, per := nPer(it.tok.num, next.tok.word); next.kind == kUnit && next.value != "day" || next.kind == kIntervalCue ||
				next.kind == kIndicator && !it.owned || next.kind == kIntervalWord && per {
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

// namesNumberBefore reports whether the parameter word at j names the number
// before it ("2.5 standard deviations", "20 period") rather than the one after
// it ("length 20"): it does when no number follows it, or when the number
// that follows is itself named by the word after it ("12 fast 26 slow").
func (s *state) namesNumberBefore(j int) bool {
	k := j + 1
	for s.at(k).kind == kFiller {
		k++
	}
	if n := s.at(k); n.kind != kNum || n.used {
		return true
	}
	k++
	for s.at(k).kind == kFiller {
		k++
	}
	return s.at(k).kind == kRole
}

// labelled adds to an indicator's numbers the ones named by a parameter word
// further on, before the next indicator: "RSI on BTC daily with length 7",
// "MACD for ETH, fast 8 slow 21 signal 5". A parameter word binds to the
// nearest study before it; a number with no such word is left to the range,
// interval and level rules.
func (s *state) labelled(i int, nums []numArg) []numArg {
	for j := i + 1; j < len(s.items); j++ {
		it := s.at(j)
		if it.kind == kIndicator || it.kind == kCross {
			break
		}
		if it.used {
			continue
		}
		k := j + 1
		for s.at(k).kind == kFiller {
			k++
		}
		n := s.at(k)
		var num, role *item
		numAt := 0
		switch {
		case it.kind == kRole && n.kind == kNum && !n.used: // "length 7"
			num, role, numAt = n, it, k
		case it.kind == kNum && n.kind == kRole && !n.used && n.value != "length" && !s.startsSetting(k): // "2.5 std"
			num, role, numAt = it, n, j
		default:
			continue
		}
		if after := s.at(numAt + 1); after.kind == kUnit && after.value != "day" || after.kind == kIntervalCue {
			continue // "period of 3 months" is a range, not a length
		}
		nums = append(nums, numArg{v: num.tok.num, isInt: num.tok.isInt, role: role.value})
		num.used, role.used = true, true
		j = max(j, k)
	}
	return nums
}

// startsSetting reports whether the parameter word at k is followed by its
// own number ("2.5 std" vs "20 std 2.5": there 20 is not the multiplier).
func (s *state) startsSetting(k int) bool {
	m := k + 1
	for s.at(m).kind == kFiller {
		m++
	}
	return s.at(m).kind == kNum && !s.at(m).used
}

// dropRedundantCross removes an MA Cross whose two lengths are moving
// averages the text also names ("50/200 SMA golden cross"): TradingView's MA
// Cross draws those same two averages, so the chart would show each twice.
func (s *state) dropRedundantCross() {
	st := s.res.Config.Studies
	has := func(n any) bool {
		return slices.ContainsFunc(st, func(x chart.Study) bool {
			return x.Name == "Moving Average" && x.Input != nil && samePrinted(x.Input["length"], n)
		})
	}
	for i := 0; i < len(st); i++ {
		if x := st[i]; x.Name == "MA Cross" && has(x.Input["in_0"]) && has(x.Input["in_1"]) {
			s.reason("MA Cross of %v and %v not added: the %v and %v moving averages asked for show the cross", x.Input["in_0"], x.Input["in_1"], x.Input["in_0"], x.Input["in_1"])
			st = slices.Delete(st, i, i+1)
			i--
		}
	}
	s.res.Config.Studies = st
}

func (s *state) cross(it *item, nums []numArg) {
	a, b := 50.0, 200.0
	if len(nums) >= 2 {
		a, b = nums[0].v, nums[1].v
	}
	s.addStudy(chart.Study{Name: "MA Cross", Input: map[string]any{"in_0": int(a), "in_1": int(b)}},
		fmt.Sprintf("indicator: %q → MA Cross of %g and %g", it.tok.orig, a, b))
}

// indInfo is what attaching numbers reads of one documented indicator,
// worked out once per Builder instead of on every call: the inputs'
// lower-cased descriptions and keys, which are numeric and which secondary.
type indInfo struct {
	ind       *docsparse.Indicator
	desc, key []string // lower-cased Description and Key of each input
	numeric   []bool
	secondary []bool
	slot      []int // the first input with the same key: taken is by key
	primary   int   // numeric inputs that are not secondary
}

func newIndInfo(ind *docsparse.Indicator) *indInfo {
	n := len(ind.Inputs)
	x := &indInfo{ind: ind, desc: make([]string, n), key: make([]string, n), numeric: make([]bool, n),
		secondary: make([]bool, n), slot: make([]int, n)}
	for i, in := range ind.Inputs {
		x.desc[i], x.key[i] = strings.ToLower(in.Description), strings.ToLower(in.Key)
		x.numeric[i] = in.Type == "Integer" || in.Type == "Float"
		x.secondary[i] = in.Key == "offset" || in.Key == "smoothingLength" || strings.HasPrefix(x.desc[i], "smoothing") || strings.Contains(x.desc[i], "offset")
		x.slot[i] = i
		for j := range i {
			if ind.Inputs[j].Key == in.Key {
				x.slot[i] = j
				break
			}
		}
		if x.numeric[i] && !x.secondary[i] {
			x.primary++
		}
	}
	return x
}

// hasDesc reports whether some input of x is described exactly d.
func (x *indInfo) hasDesc(d string) bool {
	return slices.Contains(x.desc, d)
}

// roleInput finds the input a keyword names, reading the documented
// descriptions: its index, or -1.
func (x *indInfo) roleInput(role string, taken []bool) int {
	for i := range x.ind.Inputs {
		if !x.numeric[i] || taken[x.slot[i]] {
			continue
		}
		d, k := x.desc[i], x.key[i]
		ok := false
		switch {
		case strings.HasPrefix(role, "is:"):
			ok = d == role[3:] // exactly the documented description
		}
		switch role {
		case "length":
			ok = !x.secondary[i] && (k == "length" || k == "periods" || strings.HasPrefix(d, "length") || strings.HasPrefix(d, "period") || d == "k")
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
		case "ksmooth":
			// TradingView's "%K Smoothing": Stochastic RSI's "smooth K";
			// Stochastic's in_1, documented as "D" with TradingView's %K
			// Smoothing default 1 (in_0 K 14, in_1 D 1, in_2 smooth 3 are
			// TradingView's %K Length 14, %K Smoothing 1, %D Smoothing 3)
			ok = d == "smooth k" || d == "d" && x.hasDesc("smooth")
		case "dsmooth":
			ok = d == "smooth d" || d == "smooth" && x.hasDesc("d")
		case "k":
			ok = d == "k" || d == "smooth k"
		case "d":
			ok = d == "d" || d == "smooth d"
		}
		if ok {
			return i
		}
	}
	if role == "length" {
		for i := range x.ind.Inputs {
			if x.numeric[i] && !x.secondary[i] && !taken[x.slot[i]] {
				return i
			}
		}
	}
	return -1
}

func (s *state) addStudies(name, said string, nums []numArg) {
	x, ok := s.b.inds[name]
	if !ok {
		s.warn("%q is not in the documented indicator list; call fetch_chart_documentation for the names", said)
		return
	}
	allPositional := true
	for _, n := range nums {
		if n.role != "" && n.role != "length" {
			allPositional = false
		}
	}
	// "50 and 200 day moving averages", "EMA 9, 21 and 55": one study per number.
	if x.primary == 1 && len(nums) > 1 && allPositional {
		for _, n := range nums {
			s.addOne(x, said, []numArg{{v: n.v, isInt: n.isInt}})
		}
		return
	}
	s.addOne(x, said, nums)
}

// legendOrder reads bare numbers in the order TradingView's legend shows a
// study's settings where that differs from chart-img's documented order and
// the numbers themselves tell which is meant: Stochastic RSI's legend reads
// "Stoch RSI 3 3 14 14" (K, D, RSI length, Stochastic length) while the docs
// list in_0 length RSI, in_1 length Stoch, in_2 smooth K, in_3 smooth D. Four
// bare numbers whose first two are below the last two are the legend's
// (smoothings are short, lengths long); "14 14 3 3" stays documented order.
func legendOrder(name string, nums []numArg, buf []numArg) []numArg {
	if name != "Stochastic RSI" || len(nums) != 4 {
		return nums
	}
	for _, n := range nums {
		if n.role != "" {
			return nums
		}
	}
	if !(nums[0].v < nums[2].v && nums[1].v < nums[3].v) {
		return nums
	}
	for i, d := range []string{"smooth k", "smooth d", "length rsi", "length stoch"} {
		n := nums[i]
		n.role = "is:" + d
		buf = append(buf, n)
	}
	return buf
}

func (s *state) addOne(x *indInfo, said string, nums []numArg) {
	ind := x.ind
	st := chart.Study{Name: ind.Name}
	// the inputs taken, by key (x.slot), and the reasoning line naming them;
	// both on the stack
	var takenBuf [16]bool
	var lineBuf [160]byte
	var taken []bool
	if n := len(ind.Inputs); n <= len(takenBuf) {
		taken = takenBuf[:n]
	} else {
		taken = make([]bool, n)
	}
	line := append(lineBuf[:0], "indicator: "...)
	line = appendQuoted(line, said)
	line = append(line, " → "...)
	line = append(line, ind.Name...)
	named := 0
	var legendBuf [4]numArg
	nums = legendOrder(ind.Name, nums, legendBuf[:0])
	for _, n := range nums {
		if n.role == "" {
			continue
		}
		if i := x.roleInput(n.role, taken); i >= 0 {
			line, named = s.set(&st, x, taken, line, named, i, n.v)
		} else {
			s.warn("%s has no %s input; %g was ignored", ind.Name, n.role, n.v)
		}
	}
	for _, n := range nums {
		if n.role != "" {
			continue
		}
		i := x.roleInput("length", taken)
		if i >= 0 && ind.Inputs[i].Type == "Integer" && n.v != math.Trunc(n.v) {
			// "Bollinger Bands 2.5": a fraction belongs to the first free Float input (the multiplier)
			for f, in := range ind.Inputs {
				if in.Type == "Float" && !taken[x.slot[f]] && !x.secondary[f] {
					i = f
					break
				}
			}
		}
		if i < 0 {
			if len(ind.Inputs) == 0 {
				s.warn("%s takes no inputs; %g was ignored", ind.Name, n.v)
			} else {
				s.warn("%s takes fewer numeric inputs; %g was ignored", ind.Name, n.v)
			}
			continue
		}
		line, named = s.set(&st, x, taken, line, named, i, n.v)
	}
	if named > 0 {
		line = append(line, '}')
	} else if len(ind.Inputs) > 0 {
		line = append(line, " (documented defaults)"...)
	}
	s.addStudy(st, string(line))
}

// set gives input i of st the value v when it is within the documented
// bounds, and names it in the reasoning line ("{length=20, mult=2.5}").
func (s *state) set(st *chart.Study, x *indInfo, taken []bool, line []byte, named, i int, v float64) ([]byte, int) {
	in := &x.ind.Inputs[i]
	taken[x.slot[i]] = true
	if in.Min != nil && v < *in.Min || in.Max != nil && v > *in.Max {
		s.warn("%s %s=%g is outside the documented %s; the default is used", x.ind.Name, in.Key, v, bounds(*in))
		return line, named
	}
	if st.Input == nil {
		st.Input = map[string]any{}
	}
	if in.Type == "Integer" {
		if v != math.Trunc(v) {
			s.warn("%s %s takes a whole number; %g was rounded to %d", x.ind.Name, in.Key, v, int(math.Round(v)))
		}
		st.Input[in.Key] = int(math.Round(v))
	} else {
		st.Input[in.Key] = v
	}
	if named == 0 {
		line = append(line, " {"...)
	} else {
		line = append(line, ", "...)
	}
	line = append(line, in.Key...)
	line = append(line, '=')
	return appendG(line, v), named + 1
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

// addStudy adds st and its reasoning line, unless the same study is there.
func (s *state) addStudy(st chart.Study, line string) {
	for _, have := range s.res.Config.Studies {
		if have.Name == st.Name && sameInput(have.Input, st.Input) {
			return
		}
	}
	if s.res.Config.Studies == nil {
		s.res.Config.Studies = make([]chart.Study, 0, 4)
	}
	s.res.Config.Studies = append(s.res.Config.Studies, st)
	s.res.Reasoning = append(s.res.Reasoning, line)
}

// samePrinted is fmt.Sprint(v) == fmt.Sprint(w), printing only when the
// values are not two strings or two float64s (never == on interfaces: a slice
// in one would panic).
func samePrinted(v, w any) bool {
	switch x := v.(type) {
	case string:
		if y, ok := w.(string); ok {
			return x == y
		}
	case float64:
		if y, ok := w.(float64); ok {
			return x == y
		}
	case int:
		if y, ok := w.(int); ok {
			return x == y // two ints print alike exactly when equal
		}
	}
	return fmt.Sprint(v) == fmt.Sprint(w)
}

// sameInput compares two studies' inputs as they print (20 and 20.0 are the
// same length), without printing the whole maps on every comparison.
func sameInput(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok {
			return false
		}
		if !samePrinted(v, w) {
			return false
		}
	}
	return true
}
