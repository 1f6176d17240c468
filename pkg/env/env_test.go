package env

import (
	"testing"
	"time"
)

func TestOr(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"", "def"},
		{"   ", "def"},
		{" https://x.example ", "https://x.example"},
		{"v", "v"},
	} {
		t.Setenv("ENV_TEST_OR", c.set)
		if got := Or("ENV_TEST_OR", "def"); got != c.want {
			t.Errorf("Or with %q = %q, want %q", c.set, got, c.want)
		}
	}
	if got := Or("ENV_TEST_UNSET_NEVER", "def"); got != "def" {
		t.Errorf("Or unset = %q", got)
	}
}

func TestInt(t *testing.T) {
	for _, c := range []struct {
		set  string
		want int
	}{{"", 7}, {" 12 ", 12}, {"-3", -3}, {"1.5", 7}, {"ten", 7}} {
		t.Setenv("ENV_TEST_INT", c.set)
		if got := Int("ENV_TEST_INT", 7); got != c.want {
			t.Errorf("Int with %q = %d, want %d", c.set, got, c.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		set  string
		want time.Duration
	}{{"", time.Minute}, {"90s", 90 * time.Second}, {" 30 ", 30 * time.Second}, {"2m", 2 * time.Minute}, {"soon", time.Minute}} {
		t.Setenv("ENV_TEST_DUR", c.set)
		if got := Duration("ENV_TEST_DUR", time.Minute); got != c.want {
			t.Errorf("Duration with %q = %s, want %s", c.set, got, c.want)
		}
	}
}
