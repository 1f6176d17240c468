package nl

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// "Last N days" (2–6) on an exchange that closes at weekends counts weekday
// sessions, with the calendar span stated; crypto, a week or more, and
// spans already in calendar days stay calendar windows. Fixed clocks: Sunday
// 2026-03-15 12:00 UTC (testNow) and Monday 2026-03-16 15:00 UTC.
func TestLastDaysCountSessions(t *testing.T) {
	monday := time.Date(2026, 3, 16, 15, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		text       string
		now        time.Time
		from, to   string
		reasonPart string
	}{
		{"AAPL 15m last 2 days", testNow, "2026-03-12T00:00:00Z", "2026-03-15T12:00:00Z", "the last 2 weekday sessions of NASDAQ:AAPL (its exchange closes at weekends), Thu 2026-03-12 to Fri 2026-03-13"},
		{"AAPL 15m last 2 days", testNow, "", "", "a calendar span of 3.5 days"},
		{"EUR/USD 1h past 3 days", testNow, "2026-03-11T00:00:00Z", "2026-03-15T12:00:00Z", "Wed 2026-03-11 to Fri 2026-03-13"},
		{"TSLA 5m last 2 days", monday, "2026-03-13T00:00:00Z", "2026-03-16T15:00:00Z", "Fri 2026-03-13 to Mon 2026-03-16"},
		{"BTC 15m last 2 days", testNow, "2026-03-13T12:00:00Z", "2026-03-15T12:00:00Z", "sent exactly"},
		{"AAPL 1h last 7 days", testNow, "2026-03-08T12:00:00Z", "2026-03-15T12:00:00Z", "sent exactly"},
		{"AAPL 1h last 3 calendar days", testNow, "2026-03-12T12:00:00Z", "2026-03-15T12:00:00Z", "sent exactly"},
	} {
		t.Run(c.text+" at "+c.now.Format(time.RFC3339), func(t *testing.T) {
			b := New(docsparse.Snapshot())
			now := c.now
			b.Now = func() time.Time { return now }
			r := b.Build(Request{Text: c.text})
			rng, _ := r.Config.Range.(map[string]any)
			if c.from != "" && (rng["from"] != c.from || rng["to"] != c.to) {
				t.Errorf("range %v, want %s → %s (reasoning %v)", r.Config.Range, c.from, c.to, r.Reasoning)
			}
			if got := strings.Join(r.Reasoning, "; "); !strings.Contains(got, c.reasonPart) {
				t.Errorf("reasoning %q lacks %q", got, c.reasonPart)
			}
		})
	}
}
