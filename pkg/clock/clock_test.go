package clock

import (
	"strings"
	"testing"
	"time"
)

func TestFake(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFake(t0)
	c.Advance(90 * time.Second)
	if got := c.Now(); !got.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("after Advance: %v", got)
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Fatal("Set")
	}
	var _ Clock = System{}
	if time.Since(System{}.Now()) > time.Second {
		t.Fatal("System is not now")
	}
}

func TestFromEnv(t *testing.T) {
	sunday := "2026-12-06T11:00:00+05:30"
	cases := []struct {
		name, value string
		want        time.Time // zero: the system clock
		bad         bool
	}{
		{"unset", "", time.Time{}, false},
		{"sunday", sunday, time.Date(2026, 12, 6, 11, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), false},
		{"not rfc3339", "2026-12-06", time.Time{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvNow, tc.value)
			c, err := FromEnv()
			if tc.bad {
				if err == nil || !strings.Contains(err.Error(), EnvNow) {
					t.Fatalf("want an error naming %s, got %v", EnvNow, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := c.Now()
			if tc.want.IsZero() {
				if d := time.Since(got); d < 0 || d > time.Second {
					t.Fatalf("unset: %v is not now", got)
				}
				return
			}
			if d := got.Sub(tc.want); d < 0 || d > time.Second {
				t.Fatalf("now %v, want %v (+ the time since)", got, tc.want)
			}
			if got.Weekday() != time.Sunday {
				t.Fatalf("%v is not a Sunday", got)
			}
		})
	}
}
