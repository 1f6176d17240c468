package birth

import (
	"errors"
	"strings"
	"testing"
)

func ip(i int) *int         { return &i }
func fp(f float64) *float64 { return &f }

func TestSlotOfMinutes(t *testing.T) {
	for _, tc := range []struct {
		hhmm string
		slot int
	}{
		{"00:00", 0}, {"00:59", 0}, {"01:00", 1}, {"02:59", 1}, {"03:00", 2}, {"11:30", 6},
		{"12:59", 6}, {"13:00", 7}, {"21:00", 11}, {"22:59", 11}, {"23:00", 12}, {"23:59", 12},
	} {
		m, err := ParseClock(tc.hhmm)
		if err != nil {
			t.Fatal(err)
		}
		if got := SlotOfMinutes(m); got != tc.slot {
			t.Errorf("%s: slot %d, want %d", tc.hhmm, got, tc.slot)
		}
	}
}

func TestFieldsErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     Fields
		field string
		want  string
	}{
		{"no date", Fields{Gender: "男", BirthTimeIndex: ip(1)}, "birthDate", "YYYY-MM-DD"},
		{"bad date", Fields{BirthDate: "1990/05/17", Gender: "男", BirthTimeIndex: ip(1)}, "birthDate", "YYYY-MM-DD"},
		{"year", Fields{BirthDate: "1850-05-17", Gender: "男", BirthTimeIndex: ip(1)}, "birthDate", "1900-2100"},
		{"month", Fields{BirthDate: "1990-13-17", Gender: "男", BirthTimeIndex: ip(1)}, "birthDate", "01-12"},
		{"gender", Fields{BirthDate: "1990-05-17", Gender: "x", BirthTimeIndex: ip(1)}, "gender", "男/女"},
		{"no time", Fields{BirthDate: "1990-05-17", Gender: "男"}, "birthTimeIndex", "birthTime"},
		{"both", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTimeIndex: ip(1), BirthTime: "01:00"}, "birthTime", "not both"},
		{"index", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTimeIndex: ip(13)}, "birthTimeIndex", "0 (00:00-01:00) to 12"},
		{"clock", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTime: "24:00"}, "birthTime", "00-23"},
		{"clock format", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTime: "7pm"}, "birthTime", "HH:MM"},
		{"lon", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTime: "07:00", Longitude: fp(200)}, "longitude", "-180 to 180"},
		{"lon with index", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTimeIndex: ip(3), Longitude: fp(100)}, "longitude", "birthTime"},
		{"leap solar", Fields{BirthDate: "1990-05-17", Gender: "男", BirthTimeIndex: ip(3), IsLeapMonth: true}, "isLeapMonth", "isLunar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.f.Spec()
			var be *Error
			if !errors.As(err, &be) || be.Field != tc.field || !strings.Contains(be.Message, tc.want) {
				t.Fatalf("got %v, want field %s with %q", err, tc.field, tc.want)
			}
		})
	}
}

func TestEngineErrors(t *testing.T) {
	for _, tc := range []struct {
		f    Fields
		want string
	}{
		{Fields{BirthDate: "2023-02-30", Gender: "女", BirthTimeIndex: ip(2)}, "28 days"},
		{Fields{BirthDate: "2017-06-30", Gender: "女", BirthTimeIndex: ip(2), IsLunar: true}, "29 days"}, // lunar 2017-06 has 29 days
	} {
		s, err := tc.f.Spec()
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.Chart()
		var be *Error
		if !errors.As(err, &be) || be.Field != "birthDate" || !strings.Contains(be.Message, tc.want) {
			t.Errorf("%+v: got %v, want birthDate error with %q", tc.f, err, tc.want)
		}
	}
}

func TestTrueSolarTime(t *testing.T) {
	// Ürümqi (87.6°E) at 00:30 Beijing time on 1990-02-11: 4×(87.6−120) = −129.6
	// min and EoT ≈ −14 min push the true solar time back to the previous evening.
	s, err := Fields{BirthDate: "1990-02-11", Gender: "男", BirthTime: "00:30", Longitude: fp(87.6)}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	in, res, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if res.DayShift != -1 || in.Date != "1990-02-10" || in.IsLunar {
		t.Fatalf("want the previous solar day, got %+v %+v", in, res)
	}
	if res.TrueSolarTime < "22:00" || res.TrueSolarTime > "22:15" || in.TimeIndex != 11 {
		t.Errorf("true solar time %s slot %d, want about 22:06 in slot 11", res.TrueSolarTime, in.TimeIndex)
	}
	if eot := *res.EquationOfTimeMin; eot > -13 || eot < -15 {
		t.Errorf("EoT on 11 Feb = %.2f, want about -14.2", eot)
	}
	// Without longitude the clock time is used as is.
	s2, _ := Fields{BirthDate: "1990-02-11", Gender: "男", BirthTime: "00:30"}.Spec()
	in2, res2, _ := s2.Resolve()
	if in2.TimeIndex != 0 || res2.TrueSolarTime != "" {
		t.Errorf("clock only: %+v %+v", in2, res2)
	}
}

func FuzzFields(f *testing.F) {
	f.Add("1990-05-17", "07:30", 116.4, "男", false, false, 3)
	f.Add("2017-06-30", "23:59", -180.0, "female", true, true, 12)
	f.Add("1900-01-01", "00:00", 180.0, "f", false, false, 0)
	f.Add("2100-12-31", "x", 0.0, "?", true, false, -1)
	f.Fuzz(func(t *testing.T, date, clock string, lon float64, gender string, lunar, leap bool, idx int) {
		for _, fl := range []Fields{
			{BirthDate: date, BirthTime: clock, Longitude: &lon, Gender: gender, IsLunar: lunar, IsLeapMonth: leap},
			{BirthDate: date, BirthTimeIndex: &idx, Gender: gender, IsLunar: lunar, IsLeapMonth: leap},
		} {
			s, err := fl.Spec()
			if err != nil {
				var be *Error
				if !errors.As(err, &be) || be.Message == "" {
					t.Fatalf("untyped error %v", err)
				}
				continue
			}
			c, res, err := s.Chart()
			if err != nil {
				var be *Error
				if !errors.As(err, &be) {
					t.Fatalf("untyped engine error %v", err)
				}
				continue
			}
			if res.TimeIndex < 0 || res.TimeIndex > 12 || c == nil {
				t.Fatalf("bad resolution %+v", res)
			}
		}
	})
}
