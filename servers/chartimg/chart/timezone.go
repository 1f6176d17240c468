package chart

import (
	"strings"
	"time"
	_ "time/tzdata" // zones are compared without relying on the host's zoneinfo
)

// DefaultTimezone is the v2 body's documented timezone default. The docs'
// closed "Supported Timezone" list does not name it, yet it is what a chart
// without timezone is drawn in, so it is always accepted.
const DefaultTimezone = "Etc/UTC"

// probeInstants are the moments two zones' UTC offsets are compared at: one
// a month through a fixed year, so daylight-saving rules count as well as the
// standard offset (a fixed year keeps the answer independent of today).
var probeInstants = func() []time.Time {
	var ts []time.Time
	for m := time.January; m <= time.December; m++ {
		ts = append(ts, time.Date(2026, m, 15, 12, 0, 0, 0, time.UTC))
	}
	return ts
}()

// NearestTimezone is the zone of listed (plus DefaultTimezone) whose clock is
// closest to the IANA zone name's over a year: the same offsets every month
// when one exists (exact true), else the smallest total difference. Ties go
// to a zone in the same area ("America/…"), then to the list's order. ok is
// false when name is no IANA zone.
func NearestTimezone(listed []string, name string) (best string, exact, ok bool) {
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" || name == "Local" {
		return "", false, false
	}
	want := offsets(loc)
	area, _, _ := strings.Cut(name, "/")
	bestScore := -1
	for _, z := range append([]string{DefaultTimezone}, listed...) {
		zl, err := time.LoadLocation(z)
		if err != nil {
			continue
		}
		score := 0
		for i, o := range offsets(zl) {
			d := o - want[i]
			if d < 0 {
				d = -d
			}
			score += d * 2 // room for the same-area preference below
		}
		if a, _, _ := strings.Cut(z, "/"); a != area {
			score++
		}
		if bestScore < 0 || score < bestScore {
			best, bestScore = z, score
		}
	}
	return best, bestScore <= 1, best != ""
}

func offsets(loc *time.Location) []int {
	out := make([]int, len(probeInstants))
	for i, t := range probeInstants {
		_, out[i] = t.In(loc).Zone()
	}
	return out
}

// ZoneAbbreviations are the clock abbreviations people write for a zone
// ("3pm EST"), each read as an IANA zone on the docs' list (or the default).
// Several zones share CET or IST; the one named draws the same clock as the
// others that share its offsets all year, except IST (India, Israel and
// Ireland): India's is taken and the reading says so.
var ZoneAbbreviations = map[string]string{
	"utc": DefaultTimezone, "gmt": DefaultTimezone, "zulu": DefaultTimezone,
	"est": "America/New_York", "edt": "America/New_York", "et": "America/New_York",
	"cst": "America/Chicago", "cdt": "America/Chicago", "ct": "America/Chicago",
	"mst": "US/Mountain", "mdt": "US/Mountain", "mt": "US/Mountain",
	"pst": "America/Los_Angeles", "pdt": "America/Los_Angeles", "pt": "America/Los_Angeles",
	"hst": "Pacific/Honolulu", "akst": "America/Juneau", "akdt": "America/Juneau",
	"bst": "Europe/London", "cet": "Europe/Berlin", "cest": "Europe/Berlin", "eet": "Europe/Athens", "eest": "Europe/Athens",
	"msk": "Europe/Moscow", "ist": "Asia/Kolkata", "pkt": "Asia/Karachi", "sgt": "Asia/Singapore", "hkt": "Asia/Hong_Kong",
	"jst": "Asia/Tokyo", "kst": "Asia/Seoul", "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
	"awst": "Australia/Perth", "acst": "Australia/Adelaide", "nzst": "Pacific/Auckland", "nzdt": "Pacific/Auckland",
}

// ZoneNames are words for a zone that are not the city of a listed zone:
// regions, other cities on the same clock. The listed zones' own cities
// ("New York", "Tokyo") come from the docs' list itself.
var ZoneNames = map[string]string{
	"eastern": "America/New_York", "central": "America/Chicago", "mountain": "US/Mountain", "pacific": "America/Los_Angeles",
	"hawaii": "Pacific/Honolulu", "alaska": "America/Juneau",
	"nyc": "America/New_York", "ny": "America/New_York", "wall street": "America/New_York", "la": "America/Los_Angeles",
	"san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "london uk": "Europe/London",
	"mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new delhi": "Asia/Kolkata", "india": "Asia/Kolkata", "bombay": "Asia/Kolkata",
	"beijing": "Asia/Shanghai", "china": "Asia/Shanghai", "japan": "Asia/Tokyo", "korea": "Asia/Seoul",
	"frankfurt": "Europe/Berlin", "germany": "Europe/Berlin", "uk": "Europe/London", "hong kong": "Asia/Hong_Kong",
	"melbourne": "Australia/Sydney", "canberra": "Australia/ACT", "wellington": "Pacific/Auckland",
	"utc": DefaultTimezone, "gmt": DefaultTimezone, "greenwich": DefaultTimezone,
}
