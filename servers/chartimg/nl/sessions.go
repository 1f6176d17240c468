package nl

// "Last N days" on an exchange that closes: stocks, futures, indices and
// forex do not trade at weekends, so a calendar window of two or three days
// read on a Sunday holds one session or none. Such a span counts weekday
// sessions instead, and the reasoning states the calendar span sent.

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// closes reports whether symbol trades on an exchange that closes at
// weekends: anything but the crypto exchanges (the docs' "Crypto Currency"
// table and the crypto exchanges this package knows). No symbol is the API's
// default, BINANCE:BTCUSDT: crypto.
func (b *Builder) closes(symbol string) bool {
	ex, _, ok := strings.Cut(strings.TrimLeft(symbol, "("), ":")
	if !ok || ex == "" {
		return false
	}
	return !b.crypto[strings.ToUpper(ex)]
}

// sessionsFrom is the start (00:00 UTC) of the n-th weekday back from to,
// today counting as one when it is a weekday. Exchange holidays are not
// known, so a holiday in the span counts as a session.
func sessionsFrom(to time.Time, n int) (time.Time, []time.Time) {
	d := time.Date(to.Year(), to.Month(), to.Day(), 0, 0, 0, 0, time.UTC)
	var days []time.Time
	for len(days) < n {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			days = append(days, d)
		}
		if len(days) < n {
			d = d.AddDate(0, 0, -1)
		}
	}
	return d, days
}

// sessionSpan is the reasoning for a day span read as sessions.
func sessionSpan(said, symbol string, n int, from, to time.Time, days []time.Time) string {
	first, last := days[len(days)-1], days[0]
	cal := strconv.FormatFloat(math.Round(to.Sub(from).Hours()/2.4)/10, 'f', -1, 64)
	return "range: " + strconv.Quote(said) + " → the last " + strconv.Itoa(n) + " weekday sessions of " + symbol +
		" (its exchange closes at weekends), " + first.Format("Mon 2006-01-02") + " to " + last.Format("Mon 2006-01-02") +
		": {from: " + from.Format(time.RFC3339) + ", to: " + to.Format(time.RFC3339) + "}, a calendar span of " +
		cal + " days (today counts when it is a weekday; exchange holidays are not known)"
}
