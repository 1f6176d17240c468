package astro

import "slices"

// Chart is a natal chart (本命盘). It is immutable after NewChart and safe for
// concurrent use.
type Chart struct {
	input     Input
	solar     Date
	dayNum    int
	lunar     LunarDate
	pillars   [4]GanZhi // year, month, day, hour by iztro's rules
	monthDays int

	soul, body int // board positions of 命宫 and 身宫 (of the earth or human chart when re-arranged)
	five       FiveElementsClass
	// heavenSoul and heavenBody are the heaven chart's 命宫 and 身宫; iztro's
	// re-arrangement keeps 命主 and earthlyBranchOfBodyPalace at their values.
	heavenSoul, heavenBody int
	// heavenPos holds where 天伤, 天使 and 天才 sit in the heaven chart (the
	// three adjective stars a re-arrangement moves); -1 when not re-arranged.
	heavenPos [3]int8
	forward   bool // 阳男阴女: decades, 长生 and 博士 run clockwise

	starPos  [NumStars]int8
	order    [NumStars]StarID // stars grouped by palace, ascending ID within
	offs     [13]uint8        // order[offs[i]:offs[i+1]] are palace i's stars
	mutagens [4]StarID        // natal 禄权科忌 by the year stem

	changshengStart, boshiStart, jiangqianStart, suiqianStart, ageStart int8

	cfg *Config // nil: iztro's defaults

	shownTime int // the hour slot as given (dayDivide "current" charts 12 as 0)
}

// NewChart computes the natal chart of the input under iztro's default settings.
func NewChart(in Input) (*Chart, error) { return NewChartWith(in, nil) }

// NewChartWith computes the natal chart under the given settings (nil or the
// zero Config: iztro's defaults). The chart keeps its own copy of cfg.
func NewChartWith(in Input, cfg *Config) (*Chart, error) {
	solar, err := in.resolve()
	if err != nil {
		return nil, err
	}
	c := &Chart{input: in, solar: solar, shownTime: in.TimeIndex}
	if !cfg.IsDefault() {
		cp := *cfg
		c.cfg = &cp
		// dayDivide "current": the late Rat hour stays on the day of birth;
		// iztro then charts it as that day's early Rat hour (bySolar's tIndex).
		if cp.DayDivide == DayDivideCurrent && in.TimeIndex >= 12 {
			c.input.TimeIndex = 0
		}
	}
	c.build()
	return c, nil
}

func (c *Chart) build() {
	in := &c.input
	c.dayNum = dayNumber(c.solar.Year, c.solar.Month, c.solar.Day)
	m, ly := lunarMonthOf(c.dayNum, c.solar.Year)
	c.lunar = LunarDate{Year: ly, Month: int(m.month), Day: c.dayNum - int(m.firstDay) + 1, Leap: m.leap}
	c.monthDays = int(m.days)
	c.pillars = pillars(c.dayNum, c.lunar, in.TimeIndex)
	if c.cfg != nil && c.cfg.YearDivide == DivideExact {
		c.pillars[0] = yearByLiChun(c.solar, in.TimeIndex)
		c.pillars[1].Stem = Stem(mod10(int(tigerStem(c.pillars[0].Stem)) + int(mod12(int(c.pillars[1].Branch)-2))))
	}
	adjYear := yearGanZhi(c.lunar.Year)
	if c.cfg.exactPeriods() {
		c.pillars[1] = monthByJie(c.solar, in.TimeIndex)
		adjYear = yearByLiChun(c.solar, in.TimeIndex)
	}
	year := c.pillars[0]

	// 安命身宫: from 寅 count to the birth month, then back (命) or on (身) by the hour.
	monthIndex := c.lunar.Month - 1
	if c.lunar.Leap && in.FixLeap && c.lunar.Day > 15 && in.TimeIndex != 12 {
		monthIndex++
	}
	monthIndex = mod12(monthIndex)
	hb := int(hourBranch(in.TimeIndex))
	c.soul = mod12(monthIndex - hb)
	c.body = mod12(monthIndex + hb)
	c.five = fiveElementsClass(c.PalaceStem(c.soul), BranchOfBoard(c.soul))
	c.forward = in.Gender.Yang() == year.Branch.Yang()

	p := placement{
		year: year, adjYear: adjYear, monthIndex: monthIndex, lunarDay: c.lunar.Day, monthDays: c.monthDays,
		timeIndex: in.TimeIndex, soul: c.soul, body: c.body, five: c.five,
		zhongzhou: c.cfg != nil && c.cfg.Algorithm == AlgorithmZhongzhou, female: in.Gender == Female,
	}
	p.place(&c.starPos)
	c.heavenSoul, c.heavenBody = c.soul, c.body
	c.heavenPos = [3]int8{-1, -1, -1}
	var moved []StarID
	if c.cfg != nil && c.cfg.AstroType != AstroHeaven {
		moved = c.rearrange(&p, hb)
	}

	// Group stars by palace keeping iztro's push order; absent stars
	// (position -1: the 中州派 stars in common charts and vice versa) are
	// skipped; stars a re-arrangement moved come last in their new palace.
	var counts [12]uint8
	for _, pos := range c.starPos {
		if pos >= 0 {
			counts[pos]++
		}
	}
	for i := 0; i < 12; i++ {
		c.offs[i+1] = c.offs[i] + counts[i]
	}
	next := c.offs
	for _, id := range pushOrder {
		if pos := c.starPos[id]; pos >= 0 && !slices.Contains(moved, id) {
			c.order[next[pos]] = id
			next[pos]++
		}
	}
	for _, id := range moved {
		pos := c.starPos[id]
		c.order[next[pos]] = id
		next[pos]++
	}
	c.mutagens = c.cfg.mutagens(year.Stem)

	c.changshengStart = int8(bb(changshengStart[c.five]))
	c.boshiStart = c.starPos[LuCun]
	c.jiangqianStart = int8(bb(jiangqianPos[branchGroup(p.adjYear.Branch)]))
	c.suiqianStart = int8(bb(p.adjYear.Branch))
	c.ageStart = int8(bb(agePos[branchGroup(year.Branch)]))
}

// rearrangedStars are the adjective stars iztro's rearrangeAstrolable moves,
// in the order it moves them.
var rearrangedStars = [3]StarID{TianShang, TianShi, TianCai}

// rearrange turns the heaven chart into the earth (地盘) or human (人盘)
// chart as iztro 2.6.1's withOptions does (lib/astro/astro.js
// rearrangeAstrolable): the 身宫 (earth) or the 福德 palace (human) becomes
// 命宫; its stem and branch give the 五行局, which places 紫微 and 天府 and
// their groups again and starts the 长生 cycle and the decades; 身宫 lies as
// far from the new 命宫 as it did from the old one; 天才, 天使 and 天伤, which
// hang on 命宫, move with it (taking the birth year's branch by yearDivide,
// as iztro's rawDates do). Everything else keeps its heaven-chart place:
// minor and other adjective stars (天寿 included), the 博士, 岁前 and 将前
// cycles, 小限 ages, 来因宫, 命主 and 身主, and the branch iztro reports as the
// body palace's. It returns the stars that changed palace.
func (c *Chart) rearrange(p *placement, hb int) []StarID {
	from := c.body
	if c.cfg.AstroType == AstroHuman {
		from = boardOfRole(c.soul, Spirit)
	}
	for k, s := range rearrangedStars {
		c.heavenPos[k] = c.starPos[s]
	}
	c.soul = from
	c.body = mod12(from + 2*hb)
	c.five = fiveElementsClass(c.PalaceStem(from), BranchOfBoard(from))
	p.soul, p.body, p.five = c.soul, c.body, c.five
	p.placeMajor(&c.starPos)
	yb := int(c.pillars[0].Branch)
	c.starPos[TianCai] = int8(mod12(c.soul + yb))
	shi, shang := c.soul+7, c.soul+5
	if p.zhongzhou && (yb%2 == 0) == p.female {
		shi, shang = shang, shi
	}
	c.starPos[TianShi] = int8(mod12(shi))
	c.starPos[TianShang] = int8(mod12(shang))
	var moved []StarID
	for k, s := range rearrangedStars {
		if c.starPos[s] != c.heavenPos[k] {
			moved = append(moved, s)
		}
	}
	return moved
}

// AstroType returns the chart type (天盘, 地盘 or 人盘).
func (c *Chart) AstroType() AstroType {
	if c.cfg == nil {
		return AstroHeaven
	}
	return c.cfg.AstroType
}

// HeavenBodyIndex is the heaven chart's 身宫, whose branch iztro reports as
// earthlyBranchOfBodyPalace also in earth and human charts (BodyIndex is the
// re-arranged one, iztro's isBodyPalace).
func (c *Chart) HeavenBodyIndex() int { return c.heavenBody }

// fiveElementsClass is 定五行局 from the life palace's stem and branch (纳音).
func fiveElementsClass(s Stem, b Branch) FiveElementsClass {
	n := int(s)/2 + 1 + (int(b)%6)/2 + 1
	for n > 5 {
		n -= 5
	}
	return [5]FiveElementsClass{Wood3, Metal4, Water2, Fire6, Earth5}[n-1]
}

// Input returns the input the chart was built from.
func (c *Chart) Input() Input { return c.input }

// Gender of the chart owner.
func (c *Chart) Gender() Gender { return c.input.Gender }

// TimeIndex is the birth hour slot 0-12.
func (c *Chart) TimeIndex() int { return c.input.TimeIndex }

// SolarDate is the solar birth date.
func (c *Chart) SolarDate() Date { return c.solar }

// LunarDate is the calendar lunar birth date (the late Rat hour does not move it).
func (c *Chart) LunarDate() LunarDate { return c.lunar }

// Pillars returns the year, month, day and hour pillars (iztro's rules).
func (c *Chart) Pillars() [4]GanZhi { return c.pillars }

// SoulIndex is the board position (0 = 寅) of the life palace (命宫).
func (c *Chart) SoulIndex() int { return c.soul }

// BodyIndex is the board position of the body palace (身宫).
func (c *Chart) BodyIndex() int { return c.body }

// FiveElementsClass is the chart's bureau (五行局).
func (c *Chart) FiveElementsClass() FiveElementsClass { return c.five }

// SoulStar is the life ruler (命主), by the life palace's branch.
// 中州派 takes it by the birth-year branch (iztro's bySolar). Earth and human
// charts keep the heaven chart's (iztro does not recompute it).
func (c *Chart) SoulStar() StarID {
	if c.cfg != nil && c.cfg.Algorithm == AlgorithmZhongzhou {
		return soulRulers[c.pillars[0].Branch]
	}
	return soulRulers[BranchOfBoard(c.heavenSoul)]
}

// BodyStar is the body ruler (身主), by the year branch.
func (c *Chart) BodyStar() StarID { return bodyRulers[c.pillars[0].Branch] }

var (
	soulRulers = [12]StarID{TanLang, JuMen, LuCun, WenQu, LianZhen, WuQu, PoJun, WuQu, LianZhen, WenQu, LuCun, JuMen}
	bodyRulers = [12]StarID{HuoXing, TianXiang, TianLiang, TianTong, WenChang, TianJi, HuoXing, TianXiang, TianLiang, TianTong, WenChang, TianJi}
)

// Sign returns the western star sign of the birth date (0 = aries … 11 = pisces).
func (c *Chart) Sign() int { return signOf(c.solar.Month, c.solar.Day) }

// Zodiac returns the branch whose animal is the birth year's (生肖).
func (c *Chart) Zodiac() Branch { return c.pillars[0].Branch }

// PalaceStem returns the stem of board position i (五虎遁 from the year stem).
func (c *Chart) PalaceStem(i int) Stem {
	return Stem(mod10(int(tigerStem(c.pillars[0].Stem)) + mod12(i)))
}

// PalaceRole returns the natal role of board position i.
func (c *Chart) PalaceRole(i int) PalaceRole { return roleAt(c.soul, mod12(i)) }

// PalaceOfRole returns the board position of a natal role.
func (c *Chart) PalaceOfRole(r PalaceRole) int { return boardOfRole(c.soul, r) }

// IsOriginalPalace reports whether board position i is the 来因宫: the palace
// (other than 子 and 丑) whose stem is the birth year's stem.
func (c *Chart) IsOriginalPalace(i int) bool {
	return i >= 0 && i < 10 && c.PalaceStem(i) == c.pillars[0].Stem
}

// OriginalPalace returns the board position of the 来因宫.
func (c *Chart) OriginalPalace() int {
	for i := 0; i < 10; i++ {
		if c.IsOriginalPalace(i) {
			return i
		}
	}
	return -1
}

// Stars returns the stars in board position i in iztro's order (major, minor,
// adjective; each in placement order). The slice aliases the chart: do not modify.
func (c *Chart) Stars(i int) []StarID {
	i = mod12(i)
	return c.order[c.offs[i]:c.offs[i+1]:c.offs[i+1]]
}

// StarPalace returns the board position holding the star.
func (c *Chart) StarPalace(s StarID) int {
	if !s.Valid() {
		return -1
	}
	return int(c.starPos[s])
}

// StarBrightness returns the star's brightness where it sits.
func (c *Chart) StarBrightness(s StarID) Brightness {
	if !s.Valid() {
		return BrightnessNone
	}
	return c.cfg.brightness(s, int(c.starPos[s]))
}

// StarMutagen returns the natal (birth-year) transformation of the star.
func (c *Chart) StarMutagen(s StarID) Mutagen {
	for i, id := range c.mutagens {
		if id == s {
			return Mutagen(i + 1)
		}
	}
	return MutagenNone
}

// NatalMutagens returns the four stars transformed by the birth-year stem (禄权科忌).
func (c *Chart) NatalMutagens() [4]StarID { return c.mutagens }

// Changsheng12 returns the 长生十二神 index (0 = 长生 … 11 = 养) in board position i.
func (c *Chart) Changsheng12(i int) int { return c.cycle(int(c.changshengStart), i, c.forward) }

// Boshi12 returns the 博士十二神 index (0 = 博士 … 11 = 官府) in board position i.
func (c *Chart) Boshi12(i int) int { return c.cycle(int(c.boshiStart), i, c.forward) }

// Jiangqian12 returns the birth year's 将前十二神 index (0 = 将星 … 11 = 亡神) in board position i.
func (c *Chart) Jiangqian12(i int) int { return c.cycle(int(c.jiangqianStart), i, true) }

// Suiqian12 returns the birth year's 岁前十二神 index (0 = 岁建 … 11 = 病符) in board position i.
func (c *Chart) Suiqian12(i int) int { return c.cycle(int(c.suiqianStart), i, true) }

func (c *Chart) cycle(start, i int, forward bool) int {
	if forward {
		return mod12(i - start)
	}
	return mod12(start - i)
}

// Decade is a 大限: the nominal ages it spans and the palace it runs in.
type Decade struct {
	Index    int // board position
	Order    int // 0 = first decade
	From, To int // nominal ages (虚岁), inclusive
	Stem     Stem
	Branch   Branch
}

// DecadeAt returns the decade run in board position i.
func (c *Chart) DecadeAt(i int) Decade {
	i = mod12(i)
	k := mod12(c.soul - i)
	if c.forward {
		k = mod12(i - c.soul)
	}
	from := int(c.five) + 10*k
	return Decade{Index: i, Order: k, From: from, To: from + 9, Stem: c.PalaceStem(i), Branch: BranchOfBoard(i)}
}

// DecadeByOrder returns the k-th decade (0 = first, 0-11).
func (c *Chart) DecadeByOrder(k int) (Decade, bool) {
	if k < 0 || k > 11 {
		return Decade{}, false
	}
	i := mod12(c.soul - k)
	if c.forward {
		i = mod12(c.soul + k)
	}
	return c.DecadeAt(i), true
}

// DecadeByAge returns the decade containing a nominal age; false before the
// first decade (childhood) or past the last.
func (c *Chart) DecadeByAge(age int) (Decade, bool) {
	if age < int(c.five) {
		return Decade{}, false
	}
	return c.DecadeByOrder((age - int(c.five)) / 10)
}

// AgePalace returns the board position of the 小限 for a nominal age (1-120),
// or -1 outside that range.
func (c *Chart) AgePalace(age int) int {
	if age < 1 || age > 120 {
		return -1
	}
	k := (age - 1) % 12
	if c.input.Gender == Male {
		return mod12(int(c.ageStart) + k)
	}
	return mod12(int(c.ageStart) - k)
}

// Ages returns the ten nominal ages whose 小限 is in board position i.
func (c *Chart) Ages(i int) [10]int {
	k := mod12(i - int(c.ageStart))
	if c.input.Gender != Male {
		k = mod12(int(c.ageStart) - i)
	}
	var a [10]int
	for j := range a {
		a[j] = k + 1 + 12*j
	}
	return a
}

// Mutagens returns the four stars stem s transforms (禄 权 科 忌) under this
// chart's settings.
func (c *Chart) Mutagens(s Stem) [4]StarID { return c.cfg.mutagens(s) }

// Config returns the chart's settings (the zero Config for iztro's defaults).
func (c *Chart) Config() Config {
	if c.cfg == nil {
		return Config{}
	}
	return *c.cfg
}

// pushOrder is iztro's order of the stars within a palace: ID order, with the
// 中州派 stars where iztro pushes them (after 旬空, instead of 截路 空亡).
var pushOrder = func() []StarID {
	out := make([]StarID, 0, NumStars)
	for id := StarID(0); int(id) < NumStars; id++ {
		if id == GuChen {
			out = append(out, LongDe, JieKong, JieShaAdj, DaHaoAdj)
		}
		if id >= LongDe {
			break
		}
		out = append(out, id)
	}
	return out
}()
