package fake

import "time"

// nseHolidays are the weekdays NSE's equity and derivatives segments did not
// trade, as dates in IST. source: https://www.nseindia.com/resources/exchange-communication-holidays
// (2025 and 2026 lists); 2026 as reported by NDTV Profit, "Republic Day 2026 stock
// market holiday" (2026-01-25), which counts Jan 15 (civic elections) too.
// MCX trades its evening session on some of these days; the fake closes it too
// (assumed: the fake keeps one calendar for every exchange).
var nseHolidays = map[string]bool{
	// 2025
	"2025-02-26": true, "2025-03-14": true, "2025-03-31": true, "2025-04-10": true, "2025-04-14": true,
	"2025-04-18": true, "2025-05-01": true, "2025-08-15": true, "2025-08-27": true, "2025-10-02": true,
	"2025-10-21": true, "2025-10-22": true, "2025-11-05": true, "2025-12-25": true,
	// 2026
	"2026-01-15": true, "2026-01-26": true, "2026-03-03": true, "2026-03-26": true, "2026-03-31": true,
	"2026-04-03": true, "2026-04-14": true, "2026-05-01": true, "2026-05-28": true, "2026-06-26": true,
	"2026-09-14": true, "2026-10-02": true, "2026-10-20": true, "2026-11-10": true, "2026-11-24": true,
	"2026-12-25": true,
}

// TradingDay says whether the exchanges trade on day (its IST date): not a
// Saturday, Sunday or NSE holiday.
func TradingDay(day time.Time) bool {
	d := day.In(IST)
	if d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		return false
	}
	return !nseHolidays[d.Format("2006-01-02")]
}

// LastSession is the IST date (midnight) of the last trading day that had
// closed its equity session (15:30 IST) by now: what a test asks for when it
// wants a whole day of candles whatever day it runs on.
func LastSession(now time.Time) time.Time {
	n := now.In(IST)
	d := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, IST)
	if n.Before(d.Add(15*time.Hour + 30*time.Minute)) {
		d = d.AddDate(0, 0, -1)
	}
	for !TradingDay(d) {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// LastHoliday is the latest listed exchange holiday on or before now's IST
// date, or the zero time when none is listed.
func LastHoliday(now time.Time) time.Time {
	var last time.Time
	day := now.In(IST)
	for d := range nseHolidays {
		t, err := time.ParseInLocation("2006-01-02", d, IST)
		if err == nil && !t.After(day) && t.After(last) {
			last = t
		}
	}
	return last
}
