package nl

import (
	"strings"
	"testing"
)

// TestStatedDatesGoOutExactly: dates written in the text become the v2
// range object {from, to} (ISO 8601, doc.chart-img.com "Advanced Chart"),
// the to day included whole, with nothing else read from their digits.
func TestStatedDatesGoOutExactly(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct {
		text, from, to, interval, warn string
	}{
		{"AAPL from 2024-01-01 to 2024-03-31", "2024-01-01T00:00:00Z", "2024-03-31T23:59:59Z", "1D", ""},
		{"AAPL between 2024-01-01 and 2024-03-31 with RSI 14", "2024-01-01T00:00:00Z", "2024-03-31T23:59:59Z", "1D", ""},
		{"BTC 2024-03-31 - 2024-01-01", "2024-01-01T00:00:00Z", "2024-03-31T23:59:59Z", "1D", "later first"},
		{"BTC since 2024-06-01", "2024-06-01T00:00:00Z", "2026-03-15T12:00:00Z", "1W", ""},
		{"AAPL since March 1", "2026-03-01T00:00:00Z", "2026-03-15T12:00:00Z", "4h", ""},
		{"ETH since Dec 25", "2025-12-25T00:00:00Z", "2026-03-15T12:00:00Z", "1D", ""},
		{"BTC from Jan 1 2024 to Mar 31 2024", "2024-01-01T00:00:00Z", "2024-03-31T23:59:59Z", "1D", ""},
		{"ETH from March 3rd, 2025 to April 10th, 2025, 4h", "2025-03-03T00:00:00Z", "2025-04-10T23:59:59Z", "4h", ""},
	} {
		r := b.Build(Request{Text: c.text})
		obj, ok := r.Config.Range.(map[string]any)
		if !ok || obj["from"] != c.from || obj["to"] != c.to {
			t.Errorf("%q: range = %v, want {from: %s, to: %s}", c.text, r.Config.Range, c.from, c.to)
		}
		if r.Config.Interval != c.interval {
			t.Errorf("%q: interval = %s, want %s", c.text, r.Config.Interval, c.interval)
		}
		if got := strings.Join(r.Warnings, "; "); (c.warn == "") != (got == "") || !strings.Contains(got, c.warn) {
			t.Errorf("%q: warnings %q, want %q", c.text, got, c.warn)
		}
	}
}

// TestImpossibleDateSendsNoSpan: a date that does not exist is named in a
// warning and no span is guessed from the other one.
func TestImpossibleDateSendsNoSpan(t *testing.T) {
	r := testBuilder().Build(Request{Text: "TSLA from 2024-02-30 to 2024-03-31"})
	if r.Config.Range != nil {
		t.Errorf("range = %v, want none", r.Config.Range)
	}
	if w := strings.Join(r.Warnings, "; "); !strings.Contains(w, "2024-02-30 is not a calendar date") {
		t.Errorf("warnings %q do not name the bad date", w)
	}
}

func FuzzDates(f *testing.F) {
	for _, s := range []string{"from 2024-01-01 to 2024-03-31", "since March 1st, 2024", "Dec 25", "may 2024", "2024-13-45", "Jan 99 2024"} {
		f.Add(s)
	}
	b := testBuilder()
	f.Fuzz(func(t *testing.T, text string) {
		_ = b.Build(Request{Text: text})
	})
}

// TestDateUntilNow: "until today" after a date is the span's open end, not
// a second range; a second range that is ignored is named as it was said.
func TestDateUntilNow(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct{ text, from, warn string }{
		{"BTC from 2025-06-01 until today", "2025-06-01T00:00:00Z", ""},
		{"BTC since March 1 to now", "2026-03-01T00:00:00Z", ""},
		{"BTC from 2025-06-01 to date with RSI", "2025-06-01T00:00:00Z", ""},
		{"BTC last 7 days and YTD", "2026-03-08T12:00:00Z", `several ranges stated; "7 days" is used, "YTD" ignored`},
	} {
		r := b.Build(Request{Text: c.text})
		obj, ok := r.Config.Range.(map[string]any)
		if !ok || obj["from"] != c.from || obj["to"] != "2026-03-15T12:00:00Z" {
			t.Errorf("%q: range = %v, want {from: %s, to: now}", c.text, r.Config.Range, c.from)
		}
		if got := strings.Join(r.Warnings, "; "); got != c.warn {
			t.Errorf("%q: warnings %q, want %q", c.text, got, c.warn)
		}
	}
}
