package tools

import (
	"strconv"
	"strings"
	"time"
)

// IST is the zone of every Noren timestamp.
var IST = time.FixedZone("IST", 5*3600+1800)

// norenTime turns Noren's timestamps ("HH:MM:SS DD-MM-YYYY", "DD-MM-YYYY
// HH:MM:SS", "21-SEP-2022", epoch seconds) into ISO 8601 in IST; unknown
// shapes pass through unchanged, "" stays "".
func norenTime(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if t, ok := parseNorenTime(s); ok {
		return t.Format(time.RFC3339)
	}
	return s
}

var norenLayouts = []string{"15:04:05 02-01-2006", "02-01-2006 15:04:05", "02-Jan-2006", "02-01-2006", "2006-01-02 15:04:05", "2006-01-02"}

func parseNorenTime(s string) (time.Time, bool) {
	for _, l := range norenLayouts {
		if t, err := time.ParseInLocation(l, s, IST); err == nil {
			return t, true
		}
	}
	// "21-SEP-2022" (EODChartData): Go wants "Sep".
	if len(s) == 11 && s[2] == '-' && s[6] == '-' {
		fixed := s[:4] + strings.ToLower(s[4:6]) + s[6:]
		if t, err := time.ParseInLocation("02-Jan-2006", fixed, IST); err == nil {
			return t, true
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 1e8 && f < 1e11 {
		return time.Unix(int64(f), 0).In(IST), true
	}
	return time.Time{}, false
}
