package nl

// Attaching numbers to indicators: "50 and 200 day MAs", "RSI 21", "MACD(12, 26, 9)",
// "Bollinger Bands with 2.5 standard deviations"; inputs are matched by the documented descriptions.

import (
	"fmt"
	"math"
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
		after := s.post(i)
		before := pre[i]
		// "2 EMAs (12 and 26)", "three moving averages 10, 20, 50": a small number before a
		// plural name is a count when the lengths follow
		if len(before) == 1 && before[0].v <= 10 && len(after) > 0 && plural(it.tok.orig) {
			before = nil
		}
		nums := append(before, after...)
		if it.kind == kCross {
			s.cross(it, nums)
			continue
		}
		s.addStudies(it.value, it.tok.orig, nums)
	}
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
			if _, per := nPer(it.tok.num, next.tok.word); next.kind == kUnit && next.value != "day" || next.kind == kIntervalCue ||
				next.kind == kIndicator || next.kind == kIntervalWord && per {
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
		if have.Name == st.Name && sameInput(have.Input, st.Input) {
			return
		}
	}
	s.res.Config.Studies = append(s.res.Config.Studies, st)
	s.reason("indicator: %s", why)
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
