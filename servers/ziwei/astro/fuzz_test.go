package astro

import (
	"errors"
	"testing"
)

// FuzzInput: no input makes the engine panic; every failure is an InputError,
// and every accepted input renders and yields horoscopes.
func FuzzInput(f *testing.F) {
	f.Add("2023-04-19", false, false, true, 6, "男", "2030-01-01", 3)
	f.Add("2023-02-30", false, false, true, 0, "female", "2023-02-28", 12)
	f.Add("2017-06-30", true, true, false, 12, "m", "2100-12-31", 0)
	f.Add("1900-1-1", false, false, false, 13, "x", "1899-12-31", -1)
	f.Add("9999-99-99", true, false, true, -5, "", "", 99)
	f.Add("２０２３-01-01", false, false, true, 1, "女", "2023-01-01", 1)
	f.Fuzz(func(t *testing.T, date string, lunar, leap, fix bool, ti int, gender, target string, tti int) {
		g, gerr := ParseGender(gender)
		if gerr != nil {
			var ie *InputError
			if !errors.As(gerr, &ie) {
				t.Fatalf("ParseGender error %T", gerr)
			}
		}
		ParseDate(date)
		c, err := NewChart(Input{Date: date, IsLunar: lunar, IsLeapMonth: leap, FixLeap: fix, TimeIndex: ti, Gender: g})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("NewChart error %T %v", err, err)
			}
			return
		}
		for _, l := range Langs() {
			c.Render(l)
		}
		h, err := c.Horoscope(target, tti)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Horoscope error %T %v", err, err)
			}
			return
		}
		h.Render(EnUS)
	})
}
