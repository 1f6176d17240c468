package astro

import (
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"strings"
)

// Input is a birth input, as given to iztro's bySolar / byLunar.
type Input struct {
	// Date is YYYY-MM-DD (1- or 2-digit month and day are accepted). A solar
	// (Gregorian) date unless IsLunar, then a lunar year-month-day.
	Date string
	// IsLunar marks Date as a lunar date.
	IsLunar bool
	// IsLeapMonth (lunar input only) selects the leap month (闰月) of that
	// number. As in iztro it is ignored when the year has no such leap month.
	IsLeapMonth bool
	// FixLeap: for births in a leap month, days 16 to the end count as the
	// following month when placing the palaces (iztro's default is true).
	FixLeap bool
	// TimeIndex is the hour slot: 0 early Rat 00:00-01:00, 1 Ox 01:00-03:00,
	// … 11 Pig 21:00-23:00, 12 late Rat 23:00-24:00.
	TimeIndex int
	// Gender of the chart owner.
	Gender Gender
}

// InputError reports bad input; Message says how to fix it.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

func inputErr(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// ParseGender accepts 男/女, male/female, m/f (case-insensitive).
func ParseGender(s string) (Gender, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "男", "male", "m":
		return Male, nil
	case "女", "female", "f":
		return Female, nil
	}
	return 0, inputErr("gender", "unknown gender %q: use 男/女, male/female or m/f", s)
}

// ParseDate parses YYYY-MM-DD (or YYYY-M-D) into its numbers without checking
// that the date exists.
func ParseDate(s string) (y, m, d int, err error) {
	s = strings.TrimSpace(s)
	parts := [3]int{}
	lens := [3]int{}
	k := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if lens[k] >= 4 {
				return 0, 0, 0, inputErr("date", "malformed date %q: use YYYY-MM-DD", extract.Clip(s, 40))
			}
			parts[k] = parts[k]*10 + int(c-'0')
			lens[k]++
		case c == '-' && k < 2 && lens[k] > 0:
			k++
		default:
			return 0, 0, 0, inputErr("date", "malformed date %q: use YYYY-MM-DD", extract.Clip(s, 40))
		}
	}
	if k != 2 || lens[0] != 4 || lens[1] == 0 || lens[1] > 2 || lens[2] == 0 || lens[2] > 2 {
		return 0, 0, 0, inputErr("date", "malformed date %q: use YYYY-MM-DD", extract.Clip(s, 40))
	}
	return parts[0], parts[1], parts[2], nil
}

// ParseSolarDate parses and validates a solar date within MinYear-MaxYear.
func ParseSolarDate(s string) (Date, error) {
	y, m, d, err := ParseDate(s)
	if err != nil {
		return Date{}, err
	}
	if y < MinYear || y > MaxYear {
		return Date{}, inputErr("date", "year %d is outside the supported range %d-%d", y, MinYear, MaxYear)
	}
	if m < 1 || m > 12 {
		return Date{}, inputErr("date", "month %d does not exist: use 1-12", m)
	}
	if dim := daysInSolarMonth(y, m); d < 1 || d > dim {
		return Date{}, inputErr("date", "%04d-%02d-%02d does not exist: %04d-%02d has %d days", y, m, d, y, m, dim)
	}
	return Date{y, m, d}, nil
}

// resolve validates the input and returns the solar birth date.
//
// Lunar input: the year must be MinYear-MaxYear, the month 1-12 and the day
// fit that month (29 or 30 days). isLeapMonth is ignored when the year has no
// leap month of that number (iztro does the same). Deliberate difference: iztro
// throws on the 30th of a 30-day leap month whose ordinary month has only 29
// days; that date exists, so it is accepted here.
func (in Input) resolve() (Date, error) {
	if in.TimeIndex < 0 || in.TimeIndex > 12 {
		return Date{}, inputErr("timeIndex", "time index %d is out of range: use 0 (00:00-01:00) to 12 (23:00-24:00)", in.TimeIndex)
	}
	if in.Gender != Male && in.Gender != Female {
		return Date{}, inputErr("gender", "unknown gender %d: use Male or Female", in.Gender)
	}
	if !in.IsLunar {
		return ParseSolarDate(in.Date)
	}
	y, m, d, err := ParseDate(in.Date)
	if err != nil {
		return Date{}, err
	}
	if y < MinYear || y > MaxYear {
		return Date{}, inputErr("date", "lunar year %d is outside the supported range %d-%d", y, MinYear, MaxYear)
	}
	if m < 1 || m > 12 {
		return Date{}, inputErr("date", "lunar month %d does not exist: use 1-12 (and isLeapMonth for a leap month)", m)
	}
	leap := in.IsLeapMonth && LeapMonth(y) == m
	days, ok := lunarMonthDays(y, m, leap)
	if !ok {
		return Date{}, inputErr("date", "lunar month %d of %d not found", m, y)
	}
	if d < 1 || d > days {
		which := "month"
		if leap {
			which = "leap month"
		}
		return Date{}, inputErr("date", "lunar day %d does not exist: %s %d of %d has %d days", d, which, m, y, days)
	}
	sd, _ := lunarToSolar(LunarDate{Year: y, Month: m, Day: d, Leap: leap})
	if sd.Year > MaxYear {
		return Date{}, inputErr("date", "lunar date %d-%d-%d falls on %04d-%02d-%02d, after the supported range %d-%d", y, m, d, sd.Year, sd.Month, sd.Day, MinYear, MaxYear)
	}
	return sd, nil
}
