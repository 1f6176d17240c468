// Package birth turns a birth input as people give it (a date, a time-slot
// index or a clock time, optionally a longitude for true solar time) into the
// engine's astro.Input. Spec is the canonical form: chartid encodes exactly a
// Spec, so any replica rebuilds the same chart from a chart_id.
package birth

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// Spec is one birth input in canonical form.
type Spec struct {
	Year, Month, Day int  // solar date, or lunar date when Lunar
	Lunar            bool // Year-Month-Day is a lunar date
	LeapMonth        bool // lunar input only: the leap month of that number
	FixLeap          bool // days 16+ of a leap month count as the next month (iztro's default true)
	Gender           astro.Gender
	// TimeIndex is the hour slot 0-12 when Clock < 0.
	TimeIndex int
	// Clock is the clock time in minutes after midnight (0-1439), or -1 when the
	// birth time was given as a slot index.
	Clock int
	// LonCenti is the longitude in hundredths of a degree east (-18000..18000);
	// only with a clock time, and only when HasLongitude.
	LonCenti     int
	HasLongitude bool
}

// Error is a bad birth input. Field is the tool argument's name; Message names the fix.
type Error struct {
	Field   string
	Message string
}

func (e *Error) Error() string { return e.Field + ": " + e.Message }

func errf(field, format string, args ...any) *Error {
	return &Error{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Validate checks the ranges a Spec must respect before it can be encoded
// (whether the date exists is the engine's check, in Resolve).
func (s Spec) Validate() error {
	if s.Year < astro.MinYear || s.Year > astro.MaxYear {
		return errf("birthDate", "year %d is outside the supported range %d-%d", s.Year, astro.MinYear, astro.MaxYear)
	}
	if s.Month < 1 || s.Month > 12 {
		return errf("birthDate", "month %d does not exist: use 01-12", s.Month)
	}
	if s.Day < 1 || s.Day > 31 {
		return errf("birthDate", "day %d does not exist: use 01-31 (01-30 for lunar dates)", s.Day)
	}
	if s.Lunar && s.Day > 30 {
		return errf("birthDate", "lunar day %d does not exist: lunar months have 29 or 30 days", s.Day)
	}
	if s.LeapMonth && !s.Lunar {
		return errf("isLeapMonth", "isLeapMonth applies only to lunar dates: set isLunar true or drop isLeapMonth")
	}
	if s.Gender != astro.Male && s.Gender != astro.Female {
		return errf("gender", "unknown gender: use 男/女 or male/female")
	}
	if s.Clock < 0 {
		if s.Clock != -1 || s.TimeIndex < 0 || s.TimeIndex > 12 {
			return errf("birthTimeIndex", "time index %d is out of range: use 0 (00:00-01:00) to 12 (23:00-24:00)", s.TimeIndex)
		}
		if s.HasLongitude {
			return errf("longitude", "longitude needs a clock time: give birthTime HH:MM instead of birthTimeIndex, or drop longitude")
		}
		return nil
	}
	if s.Clock >= 24*60 {
		return errf("birthTime", "clock time out of range: use HH:MM from 00:00 to 23:59")
	}
	if s.TimeIndex != 0 {
		return errf("birthTimeIndex", "give either birthTimeIndex or birthTime, not both")
	}
	if s.HasLongitude && (s.LonCenti < -18000 || s.LonCenti > 18000) {
		return errf("longitude", "longitude %.2f is out of range: use -180 to 180 (degrees east)", float64(s.LonCenti)/100)
	}
	if !s.HasLongitude && s.LonCenti != 0 {
		return errf("longitude", "longitude set without HasLongitude")
	}
	return nil
}

// ParseClock parses a 24-hour clock time "HH:MM" (also "H:MM") into minutes after midnight.
func ParseClock(s string) (int, error) {
	s = strings.TrimSpace(s)
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, errf("birthTime", "malformed time %q: use 24-hour HH:MM, e.g. 07:30 or 23:05", extract.Clip(s, 24))
	}
	hh, ok1 := digits(h)
	mm, ok2 := digits(m)
	if !ok1 || !ok2 {
		return 0, errf("birthTime", "malformed time %q: use 24-hour HH:MM, e.g. 07:30 or 23:05", extract.Clip(s, 24))
	}
	if hh > 23 || mm > 59 {
		return 0, errf("birthTime", "time %q does not exist: hours 00-23, minutes 00-59", extract.Clip(s, 24))
	}
	return hh*60 + mm, nil
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

// ParseLongitude checks a longitude in degrees east and rounds it to 0.01°.
func ParseLongitude(lon float64) (int, error) {
	if math.IsNaN(lon) || lon < -180 || lon > 180 {
		return 0, errf("longitude", "longitude %v is out of range: use -180 to 180 (degrees east, e.g. 116.4 for Beijing)", lon)
	}
	return int(math.Round(lon * 100)), nil
}

// SlotOfMinutes maps a clock time (minutes after midnight) to iztro's hour
// slot: 00:00-00:59 → 0 (early Rat), 01:00-02:59 → 1 (Ox) … 21:00-22:59 → 11
// (Pig), 23:00-23:59 → 12 (late Rat).
func SlotOfMinutes(min int) int {
	h := min / 60
	if h >= 23 {
		return 12
	}
	return (h + 1) / 2
}

// Resolution says how the birth time was read.
type Resolution struct {
	TimeIndex int `json:"timeIndex" jsonschema:"hour slot used for the chart, 0-12"`
	// Set only for clock-time input.
	ClockTime string `json:"clockTime,omitempty" jsonschema:"the clock time given (HH:MM)"`
	// Set only when a longitude was given.
	TrueSolarTime     string   `json:"trueSolarTime,omitempty" jsonschema:"apparent (true) solar time HH:MM used to pick the slot"`
	LongitudeMinutes  *float64 `json:"longitudeCorrectionMin,omitempty" jsonschema:"4 min per degree east of 120°E"`
	EquationOfTimeMin *float64 `json:"equationOfTimeMin,omitempty" jsonschema:"equation of time in minutes (NOAA/Spencer series)"`
	DayShift          int      `json:"dayShift,omitempty" jsonschema:"-1 or +1 when true solar time crosses midnight; the chart uses the shifted solar date"`
}

// Resolve turns the Spec into the engine's input. With a clock time and a
// longitude, the apparent solar time is
//
//	clock + 4 min × (longitude − 120°) + EoT(date)
//
// (the clock is read as UTC+8 standard time, whose meridian is 120°E; EoT is
// the NOAA fractional-year series after Spencer 1971, good to about ±0.5 min).
// When that crosses midnight the solar date moves by a day; a lunar input is
// then converted to its solar date first.
func (s Spec) Resolve() (astro.Input, Resolution, error) {
	if err := s.Validate(); err != nil {
		return astro.Input{}, Resolution{}, err
	}
	in := astro.Input{
		Date: fmt.Sprintf("%04d-%02d-%02d", s.Year, s.Month, s.Day), IsLunar: s.Lunar,
		IsLeapMonth: s.LeapMonth, FixLeap: s.FixLeap, Gender: s.Gender, TimeIndex: s.TimeIndex,
	}
	var res Resolution
	if s.Clock < 0 {
		res.TimeIndex = s.TimeIndex
		return in, res, nil
	}
	res.ClockTime = fmt.Sprintf("%02d:%02d", s.Clock/60, s.Clock%60)
	if !s.HasLongitude {
		in.TimeIndex = SlotOfMinutes(s.Clock)
		res.TimeIndex = in.TimeIndex
		return in, res, nil
	}
	// The solar date is needed for the equation of time (and for a day shift).
	in.TimeIndex = 0
	c, err := astro.NewChart(in)
	if err != nil {
		return astro.Input{}, Resolution{}, FromEngine(err)
	}
	sd := c.SolarDate()
	day := time.Date(sd.Year, time.Month(sd.Month), sd.Day, 0, 0, 0, 0, time.UTC)
	lonMin := 4 * (float64(s.LonCenti)/100 - 120)
	eot := EquationOfTime(day.YearDay(), float64(s.Clock)/60)
	tst := float64(s.Clock) + lonMin + eot
	shift := int(math.Floor(tst / 1440))
	m := int(math.Floor(tst)) - shift*1440
	lonR, eotR := round2(lonMin), round2(eot)
	res.LongitudeMinutes, res.EquationOfTimeMin = &lonR, &eotR
	res.TrueSolarTime = fmt.Sprintf("%02d:%02d", m/60, m%60)
	res.DayShift = shift
	in.TimeIndex = SlotOfMinutes(m)
	res.TimeIndex = in.TimeIndex
	if shift != 0 {
		d := day.AddDate(0, 0, shift)
		if d.Year() < astro.MinYear || d.Year() > astro.MaxYear {
			return astro.Input{}, Resolution{}, errf("birthDate", "true solar time moves the birth to %s, outside the supported years %d-%d", d.Format("2006-01-02"), astro.MinYear, astro.MaxYear)
		}
		in.Date, in.IsLunar, in.IsLeapMonth = d.Format("2006-01-02"), false, false
	}
	return in, res, nil
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// EquationOfTime returns apparent minus mean solar time in minutes for a day of
// the year (1-366) and an hour of the day (NOAA's series, after Spencer 1971).
func EquationOfTime(dayOfYear int, hour float64) float64 {
	g := 2 * math.Pi / 365 * (float64(dayOfYear-1) + (hour-12)/24)
	return 229.18 * (0.000075 + 0.001868*math.Cos(g) - 0.032077*math.Sin(g) -
		0.014615*math.Cos(2*g) - 0.040849*math.Sin(2*g))
}

// Chart builds the chart of the Spec under iztro's default settings.
func (s Spec) Chart() (*astro.Chart, Resolution, error) { return s.ChartWith(nil) }

// ChartWith builds the chart of the Spec under the given settings.
func (s Spec) ChartWith(cfg *astro.Config) (*astro.Chart, Resolution, error) {
	in, res, err := s.Resolve()
	if err != nil {
		return nil, res, err
	}
	c, err := astro.NewChartWith(in, cfg)
	if err != nil {
		return nil, res, FromEngine(err)
	}
	return c, res, nil
}

// FromEngine maps the engine's input errors onto the tool argument names.
func FromEngine(err error) error {
	ie, ok := err.(*astro.InputError)
	if !ok {
		return err
	}
	field := ie.Field
	switch field {
	case "date":
		field = "birthDate"
	case "timeIndex":
		field = "birthTimeIndex"
	}
	return &Error{Field: field, Message: ie.Message}
}

// Fields are the birth arguments as tools receive them (the seed's names).
type Fields struct {
	BirthDate      string
	BirthTimeIndex *int
	BirthTime      string
	Longitude      *float64
	Gender         string
	IsLunar        bool
	IsLeapMonth    bool
	FixLeap        *bool // nil = true, iztro's default
}

// Empty reports whether no birth field is set (the caller must then give a chart_id).
func (f Fields) Empty() bool {
	return f.BirthDate == "" && f.BirthTimeIndex == nil && f.BirthTime == "" && f.Longitude == nil &&
		f.Gender == "" && !f.IsLunar && !f.IsLeapMonth && f.FixLeap == nil
}

// Spec validates the fields and returns the canonical Spec.
func (f Fields) Spec() (Spec, error) {
	var s Spec
	if strings.TrimSpace(f.BirthDate) == "" {
		return s, errf("birthDate", "birthDate is required (YYYY-MM-DD) unless you pass a chart_id")
	}
	y, m, d, err := astro.ParseDate(f.BirthDate)
	if err != nil {
		return s, errf("birthDate", "malformed date %q: use YYYY-MM-DD, e.g. 1990-05-17", extract.Clip(f.BirthDate, 24))
	}
	s.Year, s.Month, s.Day = y, m, d
	s.Lunar, s.LeapMonth = f.IsLunar, f.IsLeapMonth
	s.FixLeap = f.FixLeap == nil || *f.FixLeap
	if strings.TrimSpace(f.Gender) == "" {
		return s, errf("gender", "gender is required: use 男/女 or male/female")
	}
	g, err := astro.ParseGender(f.Gender)
	if err != nil {
		return s, errf("gender", "unknown gender %q: use 男/女 or male/female", extract.Clip(f.Gender, 24))
	}
	s.Gender = g
	switch {
	case f.BirthTimeIndex != nil && f.BirthTime != "":
		return s, errf("birthTime", "give either birthTimeIndex (0-12) or birthTime (HH:MM), not both")
	case f.BirthTimeIndex != nil:
		if *f.BirthTimeIndex < 0 || *f.BirthTimeIndex > 12 {
			return s, errf("birthTimeIndex", "time index %d is out of range: use 0 (00:00-01:00) to 12 (23:00-24:00)", *f.BirthTimeIndex)
		}
		if f.Longitude != nil {
			return s, errf("longitude", "longitude needs a clock time: give birthTime HH:MM instead of birthTimeIndex, or drop longitude")
		}
		s.TimeIndex, s.Clock = *f.BirthTimeIndex, -1
	case f.BirthTime != "":
		c, err := ParseClock(f.BirthTime)
		if err != nil {
			return s, err
		}
		s.Clock = c
		if f.Longitude != nil {
			lc, err := ParseLongitude(*f.Longitude)
			if err != nil {
				return s, err
			}
			s.LonCenti, s.HasLongitude = lc, true
		}
	default:
		return s, errf("birthTimeIndex", "the birth time is required: give birthTimeIndex (0-12) or birthTime (HH:MM)")
	}
	return s, s.Validate()
}
