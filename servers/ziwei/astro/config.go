package astro

import (
	"sync"

	"github.com/6tail/lunar-go/calendar"
)

// Config is iztro's configuration surface (astro.config in iztro 2.6.1),
// applied per chart instead of globally. The zero value is iztro's default.
type Config struct {
	Algorithm       Algorithm
	YearDivide      Divide    // birth year changes at 正月初一 (normal) or 立春 (exact)
	HoroscopeDivide Divide    // horoscope years/months at 正月初一/初一 (normal) or the 节 (exact)
	AgeDivide       AgeDivide // 虚岁 goes up at New Year (normal) or after the birthday
	DayDivide       DayDivide // late Rat hour counts as the next day (forward) or the same (current)
	// Mutagens overrides the 四化 of the stems whose HasMutagens bit is set:
	// the stars taking 禄, 权, 科, 忌.
	Mutagens    [10][4]StarID
	HasMutagens uint16 // bit s: Mutagens[s] is set
	// Brightness overrides the brightness rows of the stars in BrightnessStars,
	// 12 values by board position (0 = 寅), like iztro's brightness option.
	Brightness map[StarID][12]Brightness
	// AstroType is iztro's withOptions astroType: the heaven chart (天盘) or
	// the earth (地盘) or human (人盘) chart re-arranged from it.
	AstroType AstroType
}

// AstroType is iztro's `astroType` option (astro.withOptions).
type AstroType uint8

const (
	AstroHeaven AstroType = iota // 天盘: the chart as placed
	AstroEarth                   // 地盘: re-arranged from the body palace's stem and branch
	AstroHuman                   // 人盘: re-arranged from the 福德 palace's stem and branch
)

// Algorithm is iztro's `algorithm` option.
type Algorithm uint8

const (
	AlgorithmDefault   Algorithm = iota // 通行 (全书) tables
	AlgorithmZhongzhou                  // 中州派
)

// Divide is iztro's `yearDivide` / `horoscopeDivide` option.
type Divide uint8

const (
	DivideNormal Divide = iota
	DivideExact
)

// AgeDivide is iztro's `ageDivide` option.
type AgeDivide uint8

const (
	AgeDivideNormal AgeDivide = iota
	AgeDivideBirthday
)

// DayDivide is iztro's `dayDivide` option.
type DayDivide uint8

const (
	DayDivideForward DayDivide = iota
	DayDivideCurrent
)

// IsDefault reports whether the config is iztro's default.
func (c *Config) IsDefault() bool {
	return c == nil || (c.Algorithm == AlgorithmDefault && c.YearDivide == DivideNormal && c.HoroscopeDivide == DivideNormal &&
		c.AgeDivide == AgeDivideNormal && c.DayDivide == DayDivideForward && c.HasMutagens == 0 && len(c.Brightness) == 0 &&
		c.AstroType == AstroHeaven)
}

// mutagens returns the 四化 of stem s under the config (iztro's getTargetMutagens).
func (c *Config) mutagens(s Stem) [4]StarID {
	if c != nil && c.HasMutagens&(1<<(s%10)) != 0 {
		return c.Mutagens[s%10]
	}
	return mutagenTable[s%10]
}

// brightness returns the star's brightness at board position i under the
// config (iztro's getBrightness: a configured row replaces the built-in one).
func (c *Config) brightness(s StarID, i int) Brightness {
	if c != nil {
		if row, ok := c.Brightness[s]; ok {
			return row[mod12(i)]
		}
	}
	if int(s) >= NumStars || brightnessTable[s] == nil {
		return BrightnessNone
	}
	return brightnessTable[s][mod12(i)]
}

// yearByLiChun is the year pillar changing on the day of 立春 (iztro's
// yearDivide "exact": lunar-typescript's getYearGanByLiChun, which compares
// dates, not the instant): the solar year's stem-branch from its 立春 day on,
// the previous year's before. The hour does not matter (date comparison).
func yearByLiChun(d Date, _ int) GanZhi {
	if dayNumber(d.Year, d.Month, d.Day) >= liChunDay(d.Year) {
		return yearGanZhi(d.Year)
	}
	return yearGanZhi(d.Year - 1)
}

// liChunDays caches each solar year's 立春 day number (lunar-go's solar-term
// table, the same maths as lunar-typescript's).
var liChunDays sync.Map

func liChunDay(y int) int {
	if v, ok := liChunDays.Load(y); ok {
		return v.(int)
	}
	s := calendar.NewSolarFromYmd(y, 3, 1).GetLunar().GetJieQiTable()["立春"]
	n := dayNumber(s.GetYear(), s.GetMonth(), s.GetDay())
	liChunDays.Store(y, n)
	return n
}

// monthByJie is the month pillar changing at the 节 (iztro's horoscopeDivide
// "exact": lunar-typescript's getMonthGanExact/ZhiExact at the moment iztro
// passes, slot×2−1 hours and 30 minutes).
func monthByJie(d Date, timeIndex int) GanZhi {
	l := calendar.NewSolar(d.Year, d.Month, d.Day, max(2*timeIndex-1, 0), 30, 0).GetLunar()
	g, _ := StemByName(l.GetMonthGanExact())
	z, _ := BranchByName(l.GetMonthZhiExact())
	return GanZhi{g, z}
}

// exactPeriods reports whether horoscope years and months (and the birth
// month pillar, the yearly adjective stars and the 12-god cycles) follow 立春
// and the 节.
func (c *Config) exactPeriods() bool { return c != nil && c.HoroscopeDivide == DivideExact }
