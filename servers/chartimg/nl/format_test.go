package nl

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

func checkFormat(t *testing.T, s string, v float64) {
	t.Helper()
	if got, want := string(appendQuoted(nil, s)), fmt.Sprintf("%q", s); got != want {
		t.Errorf("appendQuoted(%q) = %s, %%q gives %s", s, got, want)
	}
	if got, want := string(appendG(nil, v)), fmt.Sprintf("%g", v); got != want {
		t.Errorf("appendG(%v) = %s, %%g gives %s", v, got, want)
	}
}

func TestFormatAsFmt(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 20, 2.5, 999999, 1e6, -999999, -1e6, 123456.5, 1e21, 1e-7, 0.1,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64, 65000, 72500, 1.5e5} {
		checkFormat(t, "EMA", v)
	}
	for _, s := range []string{"", "RSI", `a"b`, `a\b`, "tab\there", "→", "\xff", "~", " ", "\x7f", "日本"} {
		checkFormat(t, s, 1)
	}
}

func FuzzFormatAsFmt(f *testing.F) {
	f.Add("EMA", 20.0)
	f.Add("\xffé\"", -0.5)
	f.Fuzz(checkFormat)
}

func FuzzParseNumberAsStrconv(f *testing.F) {
	for _, s := range []string{"0", "20", "007", "999999999999999", "9999999999999999", "1.5", ".5", "1,000", "", "1e5", "12a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gerr := parseNumber(s)
		want, werr := strconv.ParseFloat(s, 64)
		if (gerr == nil) != (werr == nil) || gerr == nil && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseNumber(%q) = %v, %v; ParseFloat: %v, %v", s, got, gerr, want, werr)
		}
	})
}
