package astro

import (
	"os"
	"strconv"
	"testing"

	"github.com/6tail/lunar-go/calendar"
)

var (
	zhStems    = locales[ZhCN].stems
	zhBranches = locales[ZhCN].branches
)

// TestCalendarAgainstLunarGo cross-checks the cached month tables, the day
// and hour pillars, the sign and the Chinese date string with lunar-go's own
// (slow) conversions, every few days over the whole supported range. (The
// month pillar follows iztro's own rule, not lunar-go's, and is covered by
// the golden data.)
func TestCalendarAgainstLunarGo(t *testing.T) {
	step := 5
	if testing.Short() || raceEnabled {
		step = 23
	}
	if v, err := strconv.Atoi(os.Getenv("ZIWEI_CAL_STEP")); err == nil && v > 0 {
		step = v // ZIWEI_CAL_STEP=1 checks every day
	}
	lo, hi := dayNumber(MinYear, 1, 1), dayNumber(MaxYear, 12, 31)
	for n := lo; n <= hi; n += step {
		d := civilFromDays(n)
		for _, ti := range []int{0, 7, 12} {
			hour := ti*2 - 1
			if hour < 0 {
				hour = 0
			}
			s := calendar.NewSolar(d.Year, d.Month, d.Day, hour, 30, 0)
			ref := s.GetLunar()
			ld := solarToLunar(d)
			if ti == 0 {
				m := ref.GetMonth()
				if ld.Year != ref.GetYear() || ld.Month != abs(m) || ld.Leap != (m < 0) || ld.Day != ref.GetDay() {
					t.Fatalf("%v: lunar %+v, lunar-go %d-%d-%d", d, ld, ref.GetYear(), m, ref.GetDay())
				}
				if got, want := ld.ChineseString(), ref.String(); got != want {
					t.Fatalf("%v: Chinese %q, lunar-go %q", d, got, want)
				}
				if got, want := locales[ZhCN].signs[signOf(d.Month, d.Day)], s.GetXingZuo()+"座"; got != want {
					t.Fatalf("%v: sign %q, lunar-go %q", d, got, want)
				}
				back, ok := lunarToSolar(ld)
				if !ok || back != d {
					t.Fatalf("%v: lunar %+v converts back to %v", d, ld, back)
				}
			}
			p := pillars(n, ld, ti)
			if got, want := zhStems[p[0].Stem]+zhBranches[p[0].Branch], ref.GetYearGan()+ref.GetYearZhi(); got != want {
				t.Fatalf("%v: year pillar %s, lunar-go %s", d, got, want)
			}
			if got, want := zhStems[p[2].Stem]+zhBranches[p[2].Branch], ref.GetDayGanExact()+ref.GetDayZhiExact(); got != want {
				t.Fatalf("%v t%d: day pillar %s, lunar-go %s", d, ti, got, want)
			}
			if got, want := zhStems[p[3].Stem]+zhBranches[p[3].Branch], ref.GetTimeGan()+ref.GetTimeZhi(); got != want {
				t.Fatalf("%v t%d: hour pillar %s, lunar-go %s", d, ti, got, want)
			}
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// The month pillar of the second half of a leap month takes the next month;
// iztro's table would run off its end after a leap 12th month, so make sure
// the supported range has none.
func TestNoLeapTwelfthMonth(t *testing.T) {
	for y := minTableYear; y <= maxTableYear; y++ {
		if LeapMonth(y) == 12 {
			t.Fatalf("lunar year %d has a leap 12th month", y)
		}
	}
}

func TestDayNumberRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		d Date
		n int
	}{
		{Date{1970, 1, 1}, 0},
		{Date{2000, 1, 1}, 10957},
		{Date{1900, 1, 1}, -25567},
		{Date{2100, 12, 31}, 47846},
		{Date{2000, 2, 29}, 11016},
	} {
		if got := dayNumber(tc.d.Year, tc.d.Month, tc.d.Day); got != tc.n {
			t.Errorf("dayNumber(%v) = %d, want %d", tc.d, got, tc.n)
		}
		if got := civilFromDays(tc.n); got != tc.d {
			t.Errorf("civilFromDays(%d) = %v, want %v", tc.n, got, tc.d)
		}
	}
	for n := -30000; n < 50000; n += 13 {
		d := civilFromDays(n)
		if dayNumber(d.Year, d.Month, d.Day) != n {
			t.Fatalf("round trip failed at %d (%v)", n, d)
		}
	}
}

func TestLunarDateChineseString(t *testing.T) {
	for _, tc := range []struct {
		ld   LunarDate
		want string
	}{
		{LunarDate{2023, 3, 29, false}, "二〇二三年三月廿九"},
		{LunarDate{1900, 2, 10, false}, "一九〇〇年二月初十"},
		{LunarDate{1930, 6, 13, true}, "一九三〇年闰六月十三"},
		{LunarDate{1927, 12, 30, false}, "一九二七年腊月三十"},
		{LunarDate{1900, 11, 3, false}, "一九〇〇年冬月初三"},
		{LunarDate{2057, 1, 1, false}, "二〇五七年正月初一"},
		{LunarDate{2000, 9, 20, false}, "二〇〇〇年九月二十"},
	} {
		if got := tc.ld.ChineseString(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.ld, got, tc.want)
		}
	}
}
