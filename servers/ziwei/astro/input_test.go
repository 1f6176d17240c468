package astro

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParseGender(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Gender
		ok   bool
	}{
		{"男", Male, true}, {"女", Female, true}, {"male", Male, true}, {"Female", Female, true},
		{"M", Male, true}, {" f ", Female, true}, {"", 0, false}, {"x", 0, false}, {"男性", 0, false},
	} {
		g, err := ParseGender(tc.in)
		if (err == nil) != tc.ok || (tc.ok && g != tc.want) {
			t.Errorf("ParseGender(%q) = %v, %v", tc.in, g, err)
		}
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != "gender" {
				t.Errorf("ParseGender(%q): error %v is not an InputError on gender", tc.in, err)
			}
		}
	}
}

// find29 returns a lunar year/month (not leap) with 29 days.
func find29(t *testing.T) (int, int) {
	for y := 2000; y < 2010; y++ {
		for m := 1; m <= 12; m++ {
			if d, ok := lunarMonthDays(y, m, false); ok && d == 29 {
				return y, m
			}
		}
	}
	t.Fatal("no 29-day month found")
	return 0, 0
}

func TestInputValidation(t *testing.T) {
	y29, m29 := find29(t)
	lunar29 := strconv.Itoa(y29) + "-" + strconv.Itoa(m29) + "-30"
	for _, tc := range []struct {
		name  string
		in    Input
		field string // "" = valid
		msg   string // substring of the message
	}{
		{"valid solar", Input{Date: "2023-04-19", TimeIndex: 6}, "", ""},
		{"valid unpadded", Input{Date: "2023-4-9", TimeIndex: 6}, "", ""},
		{"first day", Input{Date: "1900-01-01"}, "", ""},
		{"last day", Input{Date: "2100-12-31", TimeIndex: 12, Gender: Female}, "", ""},
		{"impossible date", Input{Date: "2023-02-30"}, "date", "has 28 days"},
		{"not leap year", Input{Date: "1900-02-29"}, "date", "does not exist"},
		{"leap year", Input{Date: "2000-02-29"}, "", ""},
		{"month 13", Input{Date: "2023-13-01"}, "date", "use 1-12"},
		{"day 0", Input{Date: "2023-01-00"}, "date", "does not exist"},
		{"before range", Input{Date: "1899-12-31"}, "date", "1900-2100"},
		{"after range", Input{Date: "2101-01-01"}, "date", "1900-2100"},
		{"malformed", Input{Date: "2023/01/01"}, "date", "YYYY-MM-DD"},
		{"empty", Input{Date: ""}, "date", "YYYY-MM-DD"},
		{"short year", Input{Date: "23-01-01"}, "date", "YYYY-MM-DD"},
		{"trailing", Input{Date: "2023-01-01x"}, "date", "YYYY-MM-DD"},
		{"time -1", Input{Date: "2023-01-01", TimeIndex: -1}, "timeIndex", "0 (00:00-01:00) to 12"},
		{"time 13", Input{Date: "2023-01-01", TimeIndex: 13}, "timeIndex", "0 (00:00-01:00) to 12"},
		{"gender", Input{Date: "2023-01-01", Gender: 7}, "gender", "Male or Female"},
		{"lunar valid", Input{Date: "2023-03-29", IsLunar: true}, "", ""},
		{"lunar day 30 of 29-day month", Input{Date: lunar29, IsLunar: true}, "date", "has 29 days"},
		{"lunar day 31", Input{Date: "2023-03-31", IsLunar: true}, "date", "does not exist"},
		{"lunar month 13", Input{Date: "2023-13-01", IsLunar: true}, "date", "use 1-12"},
		{"lunar year range", Input{Date: "1899-12-01", IsLunar: true}, "date", "1900-2100"},
		{"lunar into 2101", Input{Date: "2100-12-29", IsLunar: true}, "date", "after the supported range"},
		{"leap flag ignored", Input{Date: "2048-02-18", IsLunar: true, IsLeapMonth: true}, "", ""},
		{"leap month", Input{Date: "2023-02-15", IsLunar: true, IsLeapMonth: true}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewChart(tc.in)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want InputError on %s, got %v", tc.field, err)
			}
			if ie.Field != tc.field || !strings.Contains(ie.Message, tc.msg) {
				t.Fatalf("got %s: %q; want field %s containing %q", ie.Field, ie.Message, tc.field, tc.msg)
			}
		})
	}
}

// iztro ignores isLeapMonth when the year has no leap month of that number.
func TestLeapFlagIgnored(t *testing.T) {
	if LeapMonth(2048) == 2 {
		t.Skip("2048 has a leap 2nd month")
	}
	a, err := NewChart(Input{Date: "2048-02-18", IsLunar: true, IsLeapMonth: true, FixLeap: true, TimeIndex: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewChart(Input{Date: "2048-02-18", IsLunar: true, FixLeap: true, TimeIndex: 5})
	if a.SolarDate() != b.SolarDate() || a.SolarDate() != (Date{2048, 3, 31}) {
		t.Fatalf("solar dates %v and %v, want 2048-03-31", a.SolarDate(), b.SolarDate())
	}
}

// Leap months: the leap flag selects the leap month, and the 30th of a 30-day
// leap month whose ordinary month has 29 days is accepted (iztro throws there).
func TestLeapMonthDates(t *testing.T) {
	if LeapMonth(2023) != 2 || LeapMonth(2017) != 6 {
		t.Fatalf("leap months: 2023 → %d, 2017 → %d", LeapMonth(2023), LeapMonth(2017))
	}
	c, err := NewChart(Input{Date: "2023-02-15", IsLunar: true, IsLeapMonth: true})
	if err != nil {
		t.Fatal(err)
	}
	if ld := c.LunarDate(); !ld.Leap || ld.Month != 2 || ld.Day != 15 {
		t.Fatalf("lunar date %+v", ld)
	}
	ordinary, _ := lunarMonthDays(2017, 6, false)
	leap, _ := lunarMonthDays(2017, 6, true)
	if ordinary != 29 || leap != 30 {
		t.Skipf("2017 month 6 has %d days, leap 6 %d", ordinary, leap)
	}
	if _, err := NewChart(Input{Date: "2017-06-30", IsLunar: true, IsLeapMonth: true}); err != nil {
		t.Fatalf("leap 30th rejected: %v", err)
	}
	if _, err := NewChart(Input{Date: "2017-06-30", IsLunar: true}); err == nil {
		t.Fatal("30th of a 29-day month accepted")
	}
}

func TestParseLang(t *testing.T) {
	for in, want := range map[string]Lang{"zh-CN": ZhCN, "zh_tw": ZhTW, "en-US": EnUS, "en": EnUS, "zh": ZhCN, "zh-Hant": ZhTW} {
		if got, err := ParseLang(in); err != nil || got != want {
			t.Errorf("ParseLang(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseLang("fr"); err == nil {
		t.Error("ParseLang(fr) accepted")
	}
}
