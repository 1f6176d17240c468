package client

import (
	"regexp"
	"strings"
	"testing"
)

// The identifier shapes as the patterns they replace (and as the published
// input schemas state them).
var shapePatterns = []struct {
	re    *regexp.Regexp
	check func(string) bool
}{
	{regexp.MustCompile(`^[0-9]{1,20}$`), isNumericID},
	{regexp.MustCompile(PatternConditionID), isConditionID},
	{regexp.MustCompile(PatternTokenID), isTokenID},
	{regexp.MustCompile(PatternAddress), isAddress},
	{regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,199}$`), isSlug},
}

func FuzzShapesMatchPatterns(f *testing.F) {
	for _, s := range []string{"", "1066851", "0x" + strings.Repeat("aB", 32), "0x" + strings.Repeat("f", 40),
		strings.Repeat("9", 80), strings.Repeat("9", 81), strings.Repeat("1", 21), "will-btc-hit-100k", "-x", "a-",
		strings.Repeat("a", 200), strings.Repeat("a", 201), "0X" + strings.Repeat("0", 40), "12\n", "ab\n", "é", "0x" + strings.Repeat("g", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, p := range shapePatterns {
			if got, want := p.check(s), p.re.MatchString(s); got != want {
				t.Fatalf("shape %d (%s) on %q: %v, pattern says %v", i, p.re, s, got, want)
			}
		}
	})
}

// Gamma's timestamps and the tools' dates are outside input: parsing never
// panics, and a date CheckDate admits is one Gamma's formats read.
func FuzzGammaTimeAndDates(f *testing.F) {
	for _, s := range []string{"2026-06-04 00:34:19+00", "2025-09-22T21:37:46.914643Z", "2026-05-28 05:29:05.547+00",
		"2026-05-01", "yesterday", "", "2026-13-01T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseGammaTime(s)
		if CheckDate("d", s) == nil {
			if _, ok := ParseGammaTime(s); !ok {
				t.Fatalf("CheckDate admits %q, ParseGammaTime cannot read it", s)
			}
		}
		for _, check := range []func(string, string) error{CheckAddress, CheckConditionID, CheckTokenID} {
			_ = check("f", s)
		}
	})
}
