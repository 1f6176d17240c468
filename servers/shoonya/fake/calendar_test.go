package fake

import (
	"testing"
	"time"
)

func TestLastSession(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct{ now, want string }{
		{"2026-12-06T11:00:00+05:30", "2026-12-04"}, // Sunday → Friday
		{"2026-12-07T10:00:00+05:30", "2026-12-04"}, // Monday before the close → Friday
		{"2026-12-07T16:00:00+05:30", "2026-12-07"}, // Monday after the close
		{"2026-12-25T11:00:00+05:30", "2026-12-24"}, // Christmas (holiday) → Thursday
		{"2026-12-28T09:00:00+05:30", "2026-12-24"}, // Monday morning after a Friday holiday
		{"2026-01-27T09:00:00+05:30", "2026-01-23"}, // after Republic Day (Monday) → Friday
	}
	for _, tc := range cases {
		if got := LastSession(at(tc.now)).Format("2006-01-02"); got != tc.want {
			t.Errorf("LastSession(%s) = %s, want %s", tc.now, got, tc.want)
		}
	}
}

func TestLastHoliday(t *testing.T) {
	cases := []struct {
		now  time.Time
		want string
	}{
		{time.Date(2026, 12, 7, 10, 0, 0, 0, IST), "2026-11-24"},
		{time.Date(2026, 12, 25, 0, 0, 0, 0, IST), "2026-12-25"},
		{time.Date(2024, 1, 1, 0, 0, 0, 0, IST), "0001-01-01"},
	}
	for _, tc := range cases {
		if got := LastHoliday(tc.now).Format("2006-01-02"); got != tc.want {
			t.Errorf("LastHoliday(%v) = %s, want %s", tc.now, got, tc.want)
		}
		if h := LastHoliday(tc.now); !h.IsZero() && TradingDay(h) {
			t.Errorf("%v is listed as a holiday but trades", h)
		}
	}
}
