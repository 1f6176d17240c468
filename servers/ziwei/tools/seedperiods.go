package tools

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/chartid"
)

// The seed's period tools take its own earlier outputs back instead of an
// age or a year (lujunjiehhh/iztro mcp-server-stdio.ts: decadeInfo is its
// DecadeInfo {decadeStartAge, decadeEndAge, decadeMingGong, decadePalaces},
// annualInfo its AnnualInfo {yearTianGan, yearDiZhi, liuNianMingGong, …};
// the later MCP rewrite (src/mcp/tools.ts) answers {range, decadeStem, …}
// and {year, …}). These read the age or year such an echo holds, and ours
// (get_decade_info's "decade": "3: 25-34 …", get_annual_info's nominalAge,
// stem and branch) as well, since a model echoes what it was given.

// seedDecade sets age (or decadeIndex) from decadeInfo when the call has
// neither.
func seedDecade(a map[string]any, _ func() astro.Date) {
	if _, ok := a["age"]; ok {
		return
	}
	if _, ok := a["decadeIndex"]; ok {
		return
	}
	di := object(a["decadeInfo"])
	if di == nil {
		return
	}
	if order, from, _, ok := ourDecade(di); ok {
		if order > 0 {
			a["decadeIndex"] = order
		} else {
			a["age"] = from
		}
		return
	}
	if from, _, ok := decadeAges(di); ok {
		a["age"] = from
	}
}

// seedYear sets year from annualInfo (its year, our nominalAge, or the
// year's stem and branch, placed in the birth's lifetime and, when
// decadeInfo is given too, in that decade) or, given only decadeInfo, to
// this year when this year falls in that decade. What it cannot place it
// leaves out, and the tool says which year to give.
func seedYear(a map[string]any, now func() astro.Date) {
	if _, ok := a["year"]; ok {
		return
	}
	ai, di := object(a["annualInfo"]), object(a["decadeInfo"])
	if ai == nil && di == nil {
		return
	}
	if y, ok := number(ai["year"]); ok {
		a["year"] = y
		return
	}
	id, _ := a["chart_id"].(string)
	spec, cfg, err := chartid.DecodeWith(id)
	if err != nil {
		return // the tool answers the chart_id
	}
	cc, err := buildAs(id, spec, cfg, astro.ZhCN)
	if err != nil {
		return
	}
	born := cc.chart.LunarDate().Year
	thisYear := born
	if h, err := cc.chart.HoroscopeAt(now(), 6); err == nil {
		thisYear = h.LunarDate().Year
	}
	from, to, inDecade := 1, astro.MaxNominalAge, false
	if di != nil {
		if _, f, t, ok := ourDecade(di); ok {
			from, to, inDecade = f, t, true
		} else if f, t, ok := decadeAges(di); ok {
			from, to, inDecade = f, t, true
		}
	}
	if age, ok := number(ai["nominalAge"]); ok {
		a["year"] = born + age - 1
		return
	}
	stem, okS := stemOf(ai, "yearTianGan", "stem", "heavenlyStem")
	branch, okB := branchOf(ai, "yearDiZhi", "branch", "earthlyBranch")
	if !okS || !okB {
		if ai == nil && inDecade && thisYear-born+1 >= from && thisYear-born+1 <= to {
			a["year"] = thisYear
		}
		return
	}
	best := 0
	for y := born + from - 1; y <= born+to-1; y++ {
		if yearStem(y) != stem || yearBranch(y) != branch {
			continue
		}
		if best == 0 || abs(y-thisYear) < abs(best-thisYear) {
			best = y
		}
	}
	if best != 0 {
		a["year"] = best
	}
}

// yearStem and yearBranch are a (lunar) year's stem and branch: 1984 is 甲子.
func yearStem(year int) astro.Stem     { return astro.Stem(((year-4)%10 + 10) % 10) }
func yearBranch(year int) astro.Branch { return astro.Branch(((year-4)%12 + 12) % 12) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// object reads an echoed output: a JSON object, or the text of one.
func object(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return x
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(x), &m) == nil {
			return m
		}
	}
	return nil
}

// number reads a whole number sent as a JSON number or as digits.
func number(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	case int:
		return x, true
	case json.Number:
		n, err := strconv.Atoi(string(x))
		return n, err == nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil
	}
	return 0, false
}

// decadeAges reads the seed's decade ages: decadeStartAge/decadeEndAge, or
// range [from, to].
func decadeAges(di map[string]any) (from, to int, ok bool) {
	if f, okF := number(di["decadeStartAge"]); okF {
		t, okT := number(di["decadeEndAge"])
		if !okT {
			t = f + 9
		}
		return f, t, true
	}
	if r, okR := di["range"].([]any); okR && len(r) == 2 {
		f, okF := number(r[0])
		t, okT := number(r[1])
		return f, t, okF && okT
	}
	return 0, 0, false
}

// ourDecadeLine is get_decade_info's "decade": "3: 25-34 夫妻 乙酉" (order 0
// is the 童限).
var ourDecadeLine = regexp.MustCompile(`^\s*(\d+):\s*(\d+)-(\d+)\b`)

func ourDecade(di map[string]any) (order, from, to int, ok bool) {
	s, _ := di["decade"].(string)
	m := ourDecadeLine.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, 0, false
	}
	order, _ = strconv.Atoi(m[1])
	from, _ = strconv.Atoi(m[2])
	to, _ = strconv.Atoi(m[3])
	return order, from, to, order <= 12 && from >= 1 && from <= to
}

func stemOf(m map[string]any, keys ...string) (astro.Stem, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			if st, ok := astro.StemByName(s); ok {
				return st, true
			}
		}
	}
	return 0, false
}

func branchOf(m map[string]any, keys ...string) (astro.Branch, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			if b, ok := astro.BranchByName(s); ok {
				return b, true
			}
		}
	}
	return 0, false
}
