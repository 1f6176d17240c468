package astro

import (
	"sync"
	"sync/atomic"

	"github.com/6tail/lunar-go/calendar"
)

// Calendar layer. lunar-go (the Go twin of lunar-typescript, iztro's calendar)
// is the source of truth for lunar months; but it rebuilds a whole lunar year
// (new moons, solar terms) whenever the year changes and keeps only one year
// in a global mutex-guarded cache. So each lunar year's month table is read
// from lunar-go once, kept in a lock-free per-year cache, and every further
// conversion is integer arithmetic on day numbers.

// Supported range. lunar-go / lunar-typescript are exact over 1900-2100 (iztro's
// lunar-lite documents 1900-2100); lunar year 1899 is kept so that 1900-01-01
// … 1900-01-30 (still lunar 1899) convert, and 2101 so that lunar dates late
// in 2100 and the year boundary after 2100-12-31 resolve.
const (
	MinYear = 1900 // first supported solar (and lunar input) year
	MaxYear = 2100 // last supported solar (and lunar input) year

	minTableYear = MinYear - 1
	maxTableYear = MaxYear + 1
)

// Date is a proleptic Gregorian calendar date.
type Date struct {
	Year, Month, Day int
}

// LunarDate is a date of the Chinese lunisolar calendar.
type LunarDate struct {
	Year, Month, Day int
	Leap             bool // the month is the leap month (闰月) after Month
}

type lunarMonth struct {
	month    int8 // 1-12
	leap     bool
	days     int8  // 29 or 30
	firstDay int32 // day number of the 1st
}

type lunarYear struct {
	months []lunarMonth // in order, the months whose lunar year is this year
	start  int32        // day number of 正月初一
	leap   int8         // leap month number, 0 if none
}

var (
	yearCache [maxTableYear - minTableYear + 1]atomic.Pointer[lunarYear]
	yearMu    sync.Mutex // serialises lunar-go, which shares one global cache
)

// WarmCalendar reads every supported lunar year from lunar-go into the cache
// (about 200 × 4 ms of CPU). Without it each year is read on first use, so the
// first chart touching a year costs milliseconds instead of microseconds; a
// server may call it once at start-up (e.g. in a goroutine).
func WarmCalendar() {
	for y := minTableYear; y <= maxTableYear; y++ {
		lunarYearTable(y)
	}
}

// lunarYearTable returns the month table of lunar year y (minTableYear ≤ y ≤ maxTableYear).
func lunarYearTable(y int) *lunarYear {
	slot := &yearCache[y-minTableYear]
	if t := slot.Load(); t != nil {
		return t
	}
	yearMu.Lock()
	defer yearMu.Unlock()
	if t := slot.Load(); t != nil {
		return t
	}
	t := buildLunarYear(y)
	slot.Store(t)
	return t
}

func buildLunarYear(y int) *lunarYear {
	ly := calendar.NewLunarYear(y)
	t := &lunarYear{}
	for e := ly.GetMonthsInYear().Front(); e != nil; e = e.Next() {
		m := e.Value.(*calendar.LunarMonth)
		s := calendar.NewSolarFromJulianDay(m.GetFirstJulianDay())
		num := m.GetMonth()
		lm := lunarMonth{days: int8(m.GetDayCount()), firstDay: int32(dayNumber(s.GetYear(), s.GetMonth(), s.GetDay()))}
		if num < 0 {
			lm.leap = true
			num = -num
			t.leap = int8(num)
		}
		lm.month = int8(num)
		t.months = append(t.months, lm)
	}
	t.start = t.months[0].firstDay
	return t
}

// dayNumber returns the days since 1970-01-01 of a proleptic Gregorian date.
func dayNumber(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of dayNumber.
func civilFromDays(z int) Date {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return Date{y, m, d}
}

func daysInSolarMonth(y, m int) int {
	switch m {
	case 2:
		if (y%4 == 0 && y%100 != 0) || y%400 == 0 {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// lunarMonthOf returns the lunar month containing day number n, and its year.
// n must lie within the table range.
func lunarMonthOf(n int, solarYear int) (lunarMonth, int) {
	y := solarYear
	if y > maxTableYear {
		y = maxTableYear
	}
	t := lunarYearTable(y)
	if int32(n) < t.start {
		y--
		t = lunarYearTable(y)
	}
	for i := len(t.months) - 1; i >= 0; i-- {
		if int32(n) >= t.months[i].firstDay {
			return t.months[i], y
		}
	}
	return t.months[0], y
}

// solarToLunar converts a solar date (within MinYear-MaxYear) to the lunar calendar.
func solarToLunar(d Date) LunarDate {
	n := dayNumber(d.Year, d.Month, d.Day)
	m, y := lunarMonthOf(n, d.Year)
	return LunarDate{Year: y, Month: int(m.month), Day: n - int(m.firstDay) + 1, Leap: m.leap}
}

// lunarMonthDays returns the number of days of the lunar month (29 or 30) and
// whether the month exists.
func lunarMonthDays(year, month int, leap bool) (int, bool) {
	if year < minTableYear || year > maxTableYear {
		return 0, false
	}
	for _, m := range lunarYearTable(year).months {
		if int(m.month) == month && m.leap == leap {
			return int(m.days), true
		}
	}
	return 0, false
}

// LeapMonth returns the leap month of lunar year y (0 when the year has none).
func LeapMonth(y int) int {
	if y < minTableYear || y > maxTableYear {
		return 0
	}
	return int(lunarYearTable(y).leap)
}

// lunarToSolar converts a lunar date; ok is false when the month does not exist.
func lunarToSolar(ld LunarDate) (Date, bool) {
	if ld.Year < minTableYear || ld.Year > maxTableYear {
		return Date{}, false
	}
	for _, m := range lunarYearTable(ld.Year).months {
		if int(m.month) == ld.Month && m.leap == ld.Leap {
			return civilFromDays(int(m.firstDay) + ld.Day - 1), true
		}
	}
	return Date{}, false
}

// dayGanZhiIndex returns the sexagenary index (0 = 甲子) of a day number.
// 1970-01-01 was 辛巳 (17).
func dayGanZhiIndex(n int) int {
	i := (n + 17) % 60
	if i < 0 {
		i += 60
	}
	return i
}

func ganZhiOf(i int) GanZhi { return GanZhi{Stem(i % 10), Branch(i % 12)} }

// yearGanZhi is the stem-branch of a lunar year (changes at 正月初一).
func yearGanZhi(lunarYear int) GanZhi {
	i := (lunarYear - 4) % 60
	if i < 0 {
		i += 60
	}
	return ganZhiOf(i)
}

// tigerStem is 五虎遁: the stem of the 寅 month / 寅 palace for a year stem.
func tigerStem(yearStem Stem) Stem { return Stem(mod10(int(yearStem)%5*2 + 2)) }

// pillars computes the four pillars by iztro's rules (yearDivide and
// horoscopeDivide "normal", dayDivide "forward"): the year by lunar New Year,
// the month by the lunar month (the second half of a leap month, day 16 on,
// counts as the next month), the day switching at 23:00 (time index 12 takes
// the next day) and the hour by the hour slot.
func pillars(n int, ld LunarDate, timeIndex int) [4]GanZhi {
	var p [4]GanZhi
	p[0] = yearGanZhi(ld.Year)
	month := ld.Month
	if ld.Leap && ld.Day > 15 {
		month++
	}
	p[1] = GanZhi{Stem(mod10(int(tigerStem(p[0].Stem)) + month - 1)), Branch(mod12(month + 1))}
	dn := n
	if timeIndex == 12 {
		dn++
	}
	p[2] = ganZhiOf(dayGanZhiIndex(dn))
	hb := hourBranch(timeIndex)
	p[3] = GanZhi{Stem(mod10(int(p[2].Stem)%5*2 + int(hb))), hb}
	return p
}

// hourBranch is the branch of hour slot 0-12 (0 and 12 are both 子).
func hourBranch(timeIndex int) Branch {
	if timeIndex >= 12 {
		return BranchZi
	}
	return Branch(timeIndex)
}

// signOf returns the western star sign (0 = aries … 11 = pisces) of a solar
// date, with lunar-go's / lunar-typescript's boundaries.
func signOf(month, day int) int {
	v := month*100 + day
	switch {
	case v >= 321 && v <= 419:
		return 0
	case v >= 420 && v <= 520:
		return 1
	case v >= 521 && v <= 621:
		return 2
	case v >= 622 && v <= 722:
		return 3
	case v >= 723 && v <= 822:
		return 4
	case v >= 823 && v <= 922:
		return 5
	case v >= 923 && v <= 1023:
		return 6
	case v >= 1024 && v <= 1122:
		return 7
	case v >= 1123 && v <= 1221:
		return 8
	case v >= 1222 || v <= 119:
		return 9
	case v <= 218:
		return 10
	}
	return 11
}

var (
	cnDigits    = [10]string{"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"}
	cnMonths    = [13]string{"", "正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "冬", "腊"}
	cnDayPrefix = [4]string{"初", "十", "廿", "三"}
	cnDayDigits = [11]string{"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"}
)

// ChineseString renders the lunar date as lunar-typescript does, e.g.
// 二〇二三年闰二月初十 (used by iztro in every language).
func (ld LunarDate) ChineseString() string {
	b := make([]byte, 0, 48)
	y := ld.Year
	var digits [8]int
	nd := 0
	for y > 0 && nd < len(digits) {
		digits[nd] = y % 10
		y /= 10
		nd++
	}
	for i := nd - 1; i >= 0; i-- {
		b = append(b, cnDigits[digits[i]]...)
	}
	b = append(b, "年"...)
	if ld.Leap {
		b = append(b, "闰"...)
	}
	if ld.Month >= 1 && ld.Month <= 12 {
		b = append(b, cnMonths[ld.Month]...)
	}
	b = append(b, "月"...)
	b = append(b, lunarDayName(ld.Day)...)
	return string(b)
}

func lunarDayName(d int) string {
	switch {
	case d < 1 || d > 30:
		return ""
	case d == 10:
		return "初十"
	case d == 20:
		return "二十"
	case d == 30:
		return "三十"
	}
	return cnDayPrefix[d/10] + cnDayDigits[d%10]
}
