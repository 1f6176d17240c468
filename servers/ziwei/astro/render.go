package astro

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Rendering: the chart and horoscope as JSON-ready values with iztro's field
// names and names in one language — the shapes of the golden data
// (servers/ziwei/golden/README.md). Star entries are [name, type, scope, brightness,
// mutagen]; moving stars are [name, type].

// ChartJSON is a rendered natal chart.
type ChartJSON struct {
	Gender                    string        `json:"gender"`
	SolarDate                 string        `json:"solarDate"`
	LunarDate                 string        `json:"lunarDate"`
	ChineseDate               string        `json:"chineseDate"`
	Time                      string        `json:"time"`
	TimeRange                 string        `json:"timeRange"`
	Sign                      string        `json:"sign"`
	Zodiac                    string        `json:"zodiac"`
	EarthlyBranchOfSoulPalace string        `json:"earthlyBranchOfSoulPalace"`
	EarthlyBranchOfBodyPalace string        `json:"earthlyBranchOfBodyPalace"`
	Soul                      string        `json:"soul"`
	Body                      string        `json:"body"`
	FiveElementsClass         string        `json:"fiveElementsClass"`
	RawDates                  *RawDatesJSON `json:"rawDates,omitempty"`
	Palaces                   []PalaceJSON  `json:"palaces"`
}

// RawDatesJSON holds the numbers behind the dates (Chinese characters for the pillars).
type RawDatesJSON struct {
	LunarDate   RawLunarJSON   `json:"lunarDate"`
	ChineseDate RawPillarsJSON `json:"chineseDate"`
}

// RawLunarJSON is the lunar birth date as numbers.
type RawLunarJSON struct {
	LunarYear  int  `json:"lunarYear"`
	LunarMonth int  `json:"lunarMonth"`
	LunarDay   int  `json:"lunarDay"`
	IsLeap     bool `json:"isLeap"`
}

// RawPillarsJSON are the four pillars as [stem, branch] pairs.
type RawPillarsJSON struct {
	Yearly  [2]string `json:"yearly"`
	Monthly [2]string `json:"monthly"`
	Daily   [2]string `json:"daily"`
	Hourly  [2]string `json:"hourly"`
}

// PalaceJSON is one rendered palace.
type PalaceJSON struct {
	Index            int         `json:"index"`
	Name             string      `json:"name"`
	IsBodyPalace     bool        `json:"isBodyPalace"`
	IsOriginalPalace bool        `json:"isOriginalPalace"`
	HeavenlyStem     string      `json:"heavenlyStem"`
	EarthlyBranch    string      `json:"earthlyBranch"`
	MajorStars       [][5]string `json:"majorStars"`
	MinorStars       [][5]string `json:"minorStars"`
	AdjectiveStars   [][5]string `json:"adjectiveStars"`
	Changsheng12     string      `json:"changsheng12"`
	Boshi12          string      `json:"boshi12"`
	Jiangqian12      string      `json:"jiangqian12"`
	Suiqian12        string      `json:"suiqian12"`
	Decadal          DecadalJSON `json:"decadal"`
	Ages             [10]int     `json:"ages"`
}

// DecadalJSON is a palace's decade.
type DecadalJSON struct {
	Range         [2]int `json:"range"`
	HeavenlyStem  string `json:"heavenlyStem"`
	EarthlyBranch string `json:"earthlyBranch"`
}

// Render returns the chart with names in language l. rawDates is included for
// the Chinese languages and left out for en-US (the golden data's shapes).
func (c *Chart) Render(l Lang) *ChartJSON {
	loc := l.loc()
	out := &ChartJSON{
		Gender:                    c.input.Gender.Name(l),
		SolarDate:                 c.solarDateString(),
		LunarDate:                 c.lunar.ChineseString(),
		ChineseDate:               chineseDateString(c.pillars, l),
		Time:                      TimeName(c.shownTime, l),
		TimeRange:                 TimeRange(c.shownTime),
		Sign:                      SignName(c.Sign(), l),
		Zodiac:                    ZodiacName(c.Zodiac(), l),
		EarthlyBranchOfSoulPalace: BranchOfBoard(c.soul).Name(l),
		EarthlyBranchOfBodyPalace: BranchOfBoard(c.heavenBody).Name(l),
		Soul:                      c.SoulStar().Name(l),
		Body:                      c.BodyStar().Name(l),
		FiveElementsClass:         c.five.Name(l),
		Palaces:                   make([]PalaceJSON, 12),
	}
	if c.heavenPos[0] >= 0 {
		// rearrangeAstrolable translates the 命宫 branch name again: en-US
		// 巳 "si" is also the key of 死, so it prints "dead".
		out.EarthlyBranchOfSoulPalace = loc.soulBranches[BranchOfBoard(c.soul)]
	}
	if l != EnUS {
		zh := ZhCN.loc()
		pair := func(g GanZhi) [2]string { return [2]string{zh.stems[g.Stem], zh.branches[g.Branch]} }
		out.RawDates = &RawDatesJSON{
			LunarDate: RawLunarJSON{c.lunar.Year, c.lunar.Month, c.lunar.Day, c.lunar.Leap},
			ChineseDate: RawPillarsJSON{
				Yearly: pair(c.pillars[0]), Monthly: pair(c.pillars[1]), Daily: pair(c.pillars[2]), Hourly: pair(c.pillars[3]),
			},
		}
	}
	// one backing array for all star entries (a Korean earth or human chart
	// has one more, see adjectivesAs)
	all := make([][5]string, NumStars+len(rearrangedStars))
	k := 0
	quirk := c.rearrangeQuirk(loc)
	var buf [NumStars]StarID
	for i := 0; i < 12; i++ {
		p := &out.Palaces[i]
		br := BranchOfBoard(i)
		p.Index = i
		p.Name = c.PalaceRole(i).Name(l)
		p.IsBodyPalace = i == c.body
		p.IsOriginalPalace = c.IsOriginalPalace(i)
		p.HeavenlyStem = c.PalaceStem(i).Name(l)
		p.EarthlyBranch = br.Name(l)
		var groups [3]int
		stars := c.Stars(i)
		if quirk {
			stars = c.adjectivesAs(loc, i, buf[:0])
		}
		for _, s := range stars {
			groups[s.Group()]++
		}
		start := k
		for _, s := range stars {
			all[k] = [5]string{loc.stars[s], s.Type().String(), "origin", c.StarBrightness(s).Name(l), c.StarMutagen(s).Name(l)}
			k++
		}
		p.MajorStars = all[start : start+groups[0] : start+groups[0]]
		p.MinorStars = all[start+groups[0] : start+groups[0]+groups[1] : start+groups[0]+groups[1]]
		p.AdjectiveStars = all[start+groups[0]+groups[1] : k : k]
		p.Changsheng12 = loc.changsheng[c.Changsheng12(i)]
		p.Boshi12 = loc.boshi[c.Boshi12(i)]
		p.Jiangqian12 = loc.jiangqian[c.Jiangqian12(i)]
		p.Suiqian12 = Suiqian12NameAlg(c.Suiqian12(i), l, c.Config().Algorithm)
		d := c.DecadeAt(i)
		p.Decadal = DecadalJSON{Range: [2]int{d.From, d.To}, HeavenlyStem: d.Stem.Name(l), EarthlyBranch: d.Branch.Name(l)}
		p.Ages = c.Ages(i)
	}
	return out
}

// rearrangeQuirk reports whether iztro moves 天伤, 天使 or 天才 differently
// in this locale than the chart does: it finds them by reading their names
// back (kot), and Korean 천상 reads back as 天相, so a Korean earth or human
// chart keeps the heaven chart's 天伤 and gains a second one.
func (c *Chart) rearrangeQuirk(loc *locale) bool {
	if c.heavenPos[0] < 0 {
		return false
	}
	for id := range loc.starKot {
		if int(loc.starKot[id]) != id && slices.Contains(rearrangedStars[:], StarID(loc.starKot[id])) ||
			int(loc.starKot[id]) != id && slices.Contains(rearrangedStars[:], StarID(id)) {
			return true
		}
	}
	return false
}

// adjectivesAs lists palace i's stars as iztro's rearrangeAstrolable leaves
// them in the locale: starting from the heaven chart's list, for 天伤, 天使
// and 天才 in turn it finds the first star whose name reads back as that star,
// removes it when the star now belongs elsewhere, and appends the star when it
// belongs here and none was found.
func (c *Chart) adjectivesAs(loc *locale, i int, out []StarID) []StarID {
	pos := c.starPos
	for k, s := range rearrangedStars {
		pos[s] = c.heavenPos[k]
	}
	for _, id := range pushOrder {
		if int(pos[id]) == i {
			out = append(out, id)
		}
	}
	for _, s := range rearrangedStars {
		found := -1
		for j, id := range out {
			if id.Group() == GroupAdjective && loc.starKot[id] == int8(s) {
				found = j
				break
			}
		}
		here := int(c.starPos[s]) == i
		switch {
		case found >= 0 && !here:
			out = slices.Delete(out, found, found+1)
		case found < 0 && here:
			out = append(out, s)
		}
	}
	return out
}

// solarDateString: iztro echoes a solar input unchanged and prints a date
// converted from lunar input without zero padding.
func (c *Chart) solarDateString() string {
	if !c.input.IsLunar {
		return strings.TrimSpace(c.input.Date)
	}
	return unpadded(c.solar)
}

func unpadded(d Date) string {
	return strconv.Itoa(d.Year) + "-" + strconv.Itoa(d.Month) + "-" + strconv.Itoa(d.Day)
}

// longName reports whether a name is longer than one UTF-16 unit, iztro's
// test for writing stem and branch apart (English, Vietnamese).
func longName(s string) bool { return len(utf16.Encode([]rune(s))) > 1 }

// GanZhiName writes a stem-branch pair: 丁亥, 정해; ding-hai, Đinh-Hợi where
// the names are words.
func GanZhiName(s Stem, b Branch, l Lang) string {
	if longName(s.Name(l)) || longName(b.Name(l)) {
		return s.Name(l) + "-" + b.Name(l)
	}
	return s.Name(l) + b.Name(l)
}

// chineseDateString: "癸卯 丙辰 丁丑 庚子" in Chinese; when a name is longer
// than one UTF-16 unit (English, Vietnamese) iztro writes "gui mao - bing chen - …".
func chineseDateString(p [4]GanZhi, l Lang) string {
	var b strings.Builder
	long := false
	for _, g := range p {
		long = long || longName(g.Stem.Name(l)) || longName(g.Branch.Name(l))
	}
	for i, g := range p {
		if i > 0 {
			if long {
				b.WriteString(" - ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(g.Stem.Name(l))
		if long {
			b.WriteByte(' ')
		}
		b.WriteString(g.Branch.Name(l))
	}
	return b.String()
}

// HoroscopeJSON is a rendered horoscope.
type HoroscopeJSON struct {
	SolarDate string              `json:"solarDate"`
	LunarDate string              `json:"lunarDate"`
	Decadal   HoroscopeItemJSON   `json:"decadal"`
	Age       HoroscopeAgeJSON    `json:"age"`
	Yearly    HoroscopeYearlyJSON `json:"yearly"`
	Monthly   HoroscopeItemJSON   `json:"monthly"`
	Daily     HoroscopeItemJSON   `json:"daily"`
	Hourly    HoroscopeItemJSON   `json:"hourly"`
}

// HoroscopeItemJSON is one rendered period.
type HoroscopeItemJSON struct {
	Index         int              `json:"index"`
	Name          string           `json:"name"`
	HeavenlyStem  string           `json:"heavenlyStem"`
	EarthlyBranch string           `json:"earthlyBranch"`
	PalaceNames   [12]string       `json:"palaceNames"`
	Mutagen       [4]string        `json:"mutagen"`
	Stars         *[12][][2]string `json:"stars,omitempty"`
}

// HoroscopeAgeJSON is the rendered 小限 (no moving stars, with the nominal age).
type HoroscopeAgeJSON struct {
	HoroscopeItemJSON
	NominalAge int `json:"nominalAge"`
}

// HoroscopeYearlyJSON is the rendered 流年 with its two 12-god cycles.
type HoroscopeYearlyJSON struct {
	HoroscopeItemJSON
	YearlyDecStar YearlyDecStarJSON `json:"yearlyDecStar"`
}

// YearlyDecStarJSON lists the year's 将前 and 岁前 gods by board position.
type YearlyDecStarJSON struct {
	Jiangqian12 [12]string `json:"jiangqian12"`
	Suiqian12   [12]string `json:"suiqian12"`
}

// Render returns the horoscope with names in language l.
func (h *Horoscope) Render(l Lang) *HoroscopeJSON {
	loc := l.loc()
	out := &HoroscopeJSON{
		SolarDate: unpadded(h.solar),
		LunarDate: h.lunar.ChineseString(),
		Decadal:   renderPeriod(h.decadalAs(l), l),
		Age:       HoroscopeAgeJSON{renderPeriod(h.Age, l), h.nominalAge},
		Yearly:    HoroscopeYearlyJSON{HoroscopeItemJSON: renderPeriod(h.Yearly, l)},
		Monthly:   renderPeriod(h.Monthly, l),
		Daily:     renderPeriod(h.Daily, l),
		Hourly:    renderPeriod(h.Hourly, l),
	}
	for i := 0; i < 12; i++ {
		out.Yearly.YearlyDecStar.Jiangqian12[i] = loc.jiangqian[h.Jiangqian12(i)]
		out.Yearly.YearlyDecStar.Suiqian12[i] = Suiqian12NameAlg(h.Suiqian12(i), l, h.chart.Config().Algorithm)
	}
	return out
}

// decadalAs is the decade as iztro prints it in language l. Before the first
// decade iztro finds the 童限 palace by its name (命宫, 财帛, 疾厄, 夫妻, 福德,
// 官禄 for ages 1-6), reading the palaces' names back; where a name does not
// read back (Korean 복덕, 福德, is also 天德's name) it finds none and prints a
// decade with index -1 and the stem and branch it starts from, 甲 and 子
// (lib/astro/FunctionalAstrolabe.js).
func (h *Horoscope) decadalAs(l Lang) Period {
	p := h.Decadal
	if p.Kind != PeriodChildhood {
		return p
	}
	want := childhoodRoles[h.nominalAge-1]
	loc := l.loc()
	for i := 0; i < 12; i++ {
		if loc.roleKot[h.chart.PalaceRole(i)] == int8(want) {
			p.Index, p.Stem, p.Branch = i, h.chart.PalaceStem(i), BranchOfBoard(i)
			return p
		}
	}
	return Period{Kind: PeriodDecadal, Index: -1, Stem: StemJia, Branch: BranchZi, cfg: p.cfg}
}

func renderPeriod(p Period, l Lang) HoroscopeItemJSON {
	it := HoroscopeItemJSON{
		Index:         p.Index,
		Name:          p.Kind.Name(l),
		HeavenlyStem:  p.Stem.Name(l),
		EarthlyBranch: p.Branch.Name(l),
	}
	if p.Kind == PeriodDecadal || p.Kind == PeriodChildhood {
		// iztro looks the decade's stem name up again as a translation key
		// (a typo in its key filter); in English "bing" is also the key of 病,
		// so the 丙 decade prints as "sick".
		it.HeavenlyStem = l.loc().decadeStems[p.Stem%10]
		if p.Index < 0 {
			it.HeavenlyStem = l.loc().lostDecadeStem
		}
	}
	for i := 0; i < 12; i++ {
		it.PalaceNames[i] = p.PalaceRole(i).Name(l)
	}
	for i, s := range p.Mutagens() {
		it.Mutagen[i] = s.Name(l)
	}
	if p.HasMovingStars() {
		// one backing array for the period's moving stars
		all := make([][2]string, 0, numMoving)
		var stars [12][][2]string
		pos := movingPositions(p.Stem, p.Branch)
		for i := 0; i < 12; i++ {
			start := len(all)
			p.movingAtPos(&pos, i, func(m MovingStar) {
				all = append(all, [2]string{MovingStarName(m, p.Kind, l), m.Type().String()})
			})
			stars[i] = all[start:len(all):len(all)]
		}
		it.Stars = &stars
	}
	return it
}
