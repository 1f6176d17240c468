package tools

import (
	"testing"
	"time"
)

func TestParseTimeout(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30s", 30 * time.Second, true},
		{"30", 30 * time.Second, true},
		{" 2.5 ", 2500 * time.Millisecond, true},
		{"2m", 2 * time.Minute, true},
		{"0", 0, false},
		{"500ms", 0, false},
		{"11m", 0, false},
		{"soon", 0, false},
	}
	for _, c := range cases {
		got, err := parseTimeout(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseTimeout(%q) = %v, %v", c.in, got, err)
		}
	}
}

func TestRedactURL(t *testing.T) {
	cases := map[string]string{
		"http://localhost:8000/api/v1":     "http://localhost:8000/api/v1",
		"http://u:secret@host:8000/api/v1": "http://u:xxxxx@host:8000/api/v1",
		"https://host/api/v1?token=abc":    "https://host/api/v1",
		"http://%zz":                       "(unparsable URL)",
	}
	for in, want := range cases {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
