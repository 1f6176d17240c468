package astro

import (
	"strconv"
	"strings"
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
		EarthlyBranchOfBodyPalace: BranchOfBoard(c.body).Name(l),
		Soul:                      c.SoulStar().Name(l),
		Body:                      c.BodyStar().Name(l),
		FiveElementsClass:         c.five.Name(l),
		Palaces:                   make([]PalaceJSON, 12),
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
	// one backing array for all star entries
	all := make([][5]string, NumStars)
	k := 0
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

// chineseDateString: "癸卯 丙辰 丁丑 庚子" in Chinese; when names are longer
// than one character (English) iztro writes "gui mao - bing chen - …".
func chineseDateString(p [4]GanZhi, l Lang) string {
	var b strings.Builder
	long := l == EnUS
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
		Decadal:   renderPeriod(h.Decadal, l),
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

func renderPeriod(p Period, l Lang) HoroscopeItemJSON {
	it := HoroscopeItemJSON{
		Index:         p.Index,
		Name:          p.Kind.Name(l),
		HeavenlyStem:  p.Stem.Name(l),
		EarthlyBranch: p.Branch.Name(l),
	}
	if (p.Kind == PeriodDecadal || p.Kind == PeriodChildhood) && l == EnUS && p.Stem == StemBing {
		// iztro looks the decade's stem name up again as a translation key
		// (a typo in its key filter); in English "bing" is also the key of 病,
		// so the 丙 decade prints as "sick".
		it.HeavenlyStem = l.loc().changsheng[6]
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
