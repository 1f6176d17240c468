package astro

// Horoscope is the chart's running periods (运限) at a target date and hour.
type Horoscope struct {
	chart      *Chart
	solar      Date
	lunar      LunarDate
	timeIndex  int
	nominalAge int
	// Decadal, Age, Yearly, Monthly, Daily, Hourly are the six periods.
	Decadal, Age, Yearly, Monthly, Daily, Hourly Period
}

// Period is one horoscope period (大限/童限, 小限, 流年, 流月, 流日, 流时).
type Period struct {
	Kind PeriodKind
	// Index is the board position (0 = 寅) of the period's life palace.
	Index int
	// Stem and Branch: for the decade and the age, those of the palace they
	// run in; for year, month, day and hour, the target's own pillars.
	Stem   Stem
	Branch Branch

	cfg *Config // the chart's settings, for the 四化 table
}

// PalaceRole returns the period's role of board position i (palaceNames[i]).
func (p Period) PalaceRole(i int) PalaceRole { return roleAt(p.Index, mod12(i)) }

// PalaceRoles returns the period's role of every board position (palaceNames).
func (p Period) PalaceRoles() [12]PalaceRole {
	var out [12]PalaceRole
	for i := range out {
		out[i] = roleAt(p.Index, i)
	}
	return out
}

// PalaceOfRole returns the board position playing role r in the period.
func (p Period) PalaceOfRole(r PalaceRole) int { return boardOfRole(p.Index, r) }

// Mutagens returns the four stars transformed by the period's stem (禄权科忌).
func (p Period) Mutagens() [4]StarID { return p.cfg.mutagens(p.Stem) }

// HasMovingStars reports whether the period has moving stars (all but 小限).
func (p Period) HasMovingStars() bool { return p.Kind != PeriodAge }

// MovingStars returns the period's moving stars by board position, in iztro's
// order (年解 first, yearly only). Empty for the 小限.
func (p Period) MovingStars() [12][]MovingStar {
	var out [12][]MovingStar
	if !p.HasMovingStars() {
		return out
	}
	pos := movingPositions(p.Stem, p.Branch)
	for i := 0; i < 12; i++ {
		p.movingAtPos(&pos, i, func(m MovingStar) { out[i] = append(out[i], m) })
	}
	return out
}

func (p Period) movingAtPos(pos *[numMoving]int8, i int, f func(MovingStar)) {
	if p.Kind == PeriodYearly && int(pos[MovNianJie]) == i {
		f(MovNianJie)
	}
	for m := MovKui; m < MovNianJie; m++ {
		if int(pos[m]) == i {
			f(m)
		}
	}
}

// MaxNominalAge is the last nominal age a horoscope covers: iztro's 小限
// table stops at 120 (later ages give index -1 there).
const MaxNominalAge = 120

// Horoscope computes the running periods at a solar target date ("YYYY-MM-DD",
// within MinYear-MaxYear, not before the birth date) and hour slot 0-12.
func (c *Chart) Horoscope(date string, timeIndex int) (*Horoscope, error) {
	d, err := ParseSolarDate(date)
	if err != nil {
		return nil, err
	}
	h := &Horoscope{}
	if err := c.horoscopeAt(h, d, timeIndex); err != nil {
		return nil, err
	}
	return h, nil
}

// HoroscopeAt is Horoscope with an already parsed date.
func (c *Chart) HoroscopeAt(d Date, timeIndex int) (*Horoscope, error) {
	if _, err := ParseSolarDate(formatDate(d)); err != nil {
		return nil, err
	}
	h := &Horoscope{}
	if err := c.horoscopeAt(h, d, timeIndex); err != nil {
		return nil, err
	}
	return h, nil
}

func (c *Chart) horoscopeAt(h *Horoscope, d Date, timeIndex int) error {
	if timeIndex < 0 || timeIndex > 12 {
		return inputErr("timeIndex", "time index %d is out of range: use 0 (00:00-01:00) to 12 (23:00-24:00)", timeIndex)
	}
	n := dayNumber(d.Year, d.Month, d.Day)
	if n < c.dayNum {
		return inputErr("date", "target date %s is before the birth date %s: use a date on or after the birth", formatDate(d), formatDate(c.solar))
	}
	m, ly := lunarMonthOf(n, d.Year)
	ld := LunarDate{Year: ly, Month: int(m.month), Day: n - int(m.firstDay) + 1, Leap: m.leap}
	age := ld.Year - c.lunar.Year + 1
	if c.cfg != nil && c.cfg.AgeDivide == AgeDivideBirthday {
		// ageDivide "birthday": the age goes up only once the lunar birthday
		// has passed (iztro 2.6.1 compares month and day numbers).
		age--
		if ld.Month > c.lunar.Month || (ld.Month == c.lunar.Month && ld.Day > c.lunar.Day) {
			age++
		}
		if age < 1 {
			return inputErr("date", "target date %s is before the first lunar birthday: with ageDivide birthday the nominal age there is 0, which iztro leaves undefined; use a later date", formatDate(d))
		}
	}
	if age > MaxNominalAge {
		return inputErr("date", "target date %s gives nominal age %d: horoscopes cover ages 1-%d", formatDate(d), age, MaxNominalAge)
	}
	pt := timeIndex
	if c.cfg != nil && c.cfg.DayDivide == DayDivideCurrent && pt >= 12 {
		pt = 0 // the late Rat hour stays on the target day
	}
	p := pillars(n, ld, pt)
	if c.cfg.exactPeriods() {
		p[0] = yearByLiChun(d, pt)
		p[1] = monthByJie(d, pt)
	}
	*h = Horoscope{chart: c, solar: d, lunar: ld, timeIndex: timeIndex, nominalAge: age}

	// 大限, or 童限 before the first decade: age 1 命宫, 2 财帛, 3 疾厄, 4 夫妻, 5 福德, 6 官禄.
	if dec, ok := c.DecadeByAge(age); ok {
		h.Decadal = Period{Kind: PeriodDecadal, Index: dec.Index, Stem: dec.Stem, Branch: dec.Branch, cfg: c.cfg}
	} else {
		idx := c.PalaceOfRole(childhoodRoles[age-1])
		h.Decadal = Period{Kind: PeriodChildhood, Index: idx, Stem: c.PalaceStem(idx), Branch: BranchOfBoard(idx), cfg: c.cfg}
	}
	ai := c.AgePalace(age)
	h.Age = Period{Kind: PeriodAge, Index: ai, Stem: c.PalaceStem(ai), Branch: BranchOfBoard(ai), cfg: c.cfg}

	yi := bb(p[0].Branch)
	h.Yearly = Period{Kind: PeriodYearly, Index: yi, Stem: p[0].Stem, Branch: p[0].Branch, cfg: c.cfg}
	// 流月: from the year palace count back to the birth month, on to the birth
	// hour, then on to the target month; the second half of a leap month (birth
	// or target) counts as the next month.
	birthMonth := c.lunar.Month
	if c.lunar.Leap && c.lunar.Day > 15 {
		birthMonth++
	}
	targetMonth := ld.Month
	if ld.Leap && ld.Day > 15 {
		targetMonth++
	}
	mi := mod12(yi - birthMonth + int(c.pillars[3].Branch) + targetMonth)
	h.Monthly = Period{Kind: PeriodMonthly, Index: mi, Stem: p[1].Stem, Branch: p[1].Branch, cfg: c.cfg}
	di := mod12(mi + ld.Day - 1)
	h.Daily = Period{Kind: PeriodDaily, Index: di, Stem: p[2].Stem, Branch: p[2].Branch, cfg: c.cfg}
	hi := mod12(di + int(p[3].Branch))
	h.Hourly = Period{Kind: PeriodHourly, Index: hi, Stem: p[3].Stem, Branch: p[3].Branch, cfg: c.cfg}
	return nil
}

var childhoodRoles = [6]PalaceRole{Soul, Wealth, Health, Spouse, Spirit, Career}

// Chart returns the natal chart.
func (h *Horoscope) Chart() *Chart { return h.chart }

// SolarDate is the target date.
func (h *Horoscope) SolarDate() Date { return h.solar }

// LunarDate is the target's calendar lunar date.
func (h *Horoscope) LunarDate() LunarDate { return h.lunar }

// TimeIndex is the target hour slot.
func (h *Horoscope) TimeIndex() int { return h.timeIndex }

// NominalAge is the nominal age (虚岁): target lunar year − birth lunar year + 1.
func (h *Horoscope) NominalAge() int { return h.nominalAge }

// IsChildhood reports whether the decade is the 童限.
func (h *Horoscope) IsChildhood() bool { return h.Decadal.Kind == PeriodChildhood }

// Periods returns the six periods in order decade, age, year, month, day, hour.
func (h *Horoscope) Periods() [6]Period {
	return [6]Period{h.Decadal, h.Age, h.Yearly, h.Monthly, h.Daily, h.Hourly}
}

// Jiangqian12 returns the target year's 将前十二神 index in board position i.
func (h *Horoscope) Jiangqian12(i int) int {
	return mod12(i - bb(jiangqianPos[branchGroup(h.yearBranch())]))
}

// Suiqian12 returns the target year's 岁前十二神 index in board position i.
func (h *Horoscope) Suiqian12(i int) int { return mod12(i - bb(h.yearBranch())) }

// yearBranch is the branch of the target's lunar year (iztro's getYearly12
// takes it at hour 0, which gives the same lunar year).
func (h *Horoscope) yearBranch() Branch {
	if h.chart.cfg.exactPeriods() {
		return yearByLiChun(h.solar, 0).Branch
	}
	return yearGanZhi(h.lunar.Year).Branch
}

func formatDate(d Date) string {
	b := make([]byte, 0, 10)
	b = appendInt(b, d.Year, 4)
	b = append(b, '-')
	b = appendInt(b, d.Month, 2)
	b = append(b, '-')
	b = appendInt(b, d.Day, 2)
	return string(b)
}

func appendInt(b []byte, v, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	neg := v < 0
	if neg {
		v = -v
	}
	for v > 0 || i == len(tmp) {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	for len(tmp)-i < width {
		i--
		tmp[i] = '0'
	}
	if neg {
		b = append(b, '-')
	}
	return append(b, tmp[i:]...)
}

// String renders the date as YYYY-MM-DD.
func (d Date) String() string { return formatDate(d) }
