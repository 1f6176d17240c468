package issued

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// MaxTTL bounds --expires: past ten years "never" (no --expires) says it better.
const MaxTTL = 10 * 365 * 24 * time.Hour

var units = map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}

// ParseExpires reads a lifetime as a whole number and one unit: s, m, h, d
// or w ("30d", "12h", "90m", "2w"); "" is 0, never expiring. The number is
// positive and the lifetime at most MaxTTL.
func ParseExpires(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	bad := fmt.Errorf("--expires %q: give a whole number and a unit s, m, h, d or w, e.g. 30d or 12h (at most 10 years)", extract.Clip(s, 20))
	if len(s) < 2 || len(s) > 12 {
		return 0, bad
	}
	unit, ok := units[s[len(s)-1]]
	if !ok {
		return 0, bad
	}
	digits := s[:len(s)-1]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, bad
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || n > int64(MaxTTL/unit) {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}
