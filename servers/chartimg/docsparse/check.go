package docsparse

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Check says what is wrong with x as a value of the documented input or
// override in, owned by the study or drawing named owner ("Bollinger Bands
// in_0 must be a whole number"), or "" when x fits its row: the type column
// (Integer, Float, Boolean, DateTime (ISO8601), String, Color), the
// "(Min: …, Max: …)" bounds and the "[a, b, …]" options of its description.
// JSON numbers arrive as float64; Go ints (a config built in process) count
// as numbers too.
func (in Input) Check(owner string, x any) string {
	switch {
	case in.Type == "Integer" || in.Type == "Float":
		v, ok := number(x)
		if !ok {
			return fmt.Sprintf("%s %s must be a number", owner, in.Key)
		}
		if in.Type == "Integer" && v != math.Trunc(v) {
			return fmt.Sprintf("%s %s must be a whole number", owner, in.Key)
		}
		if in.Min != nil && v < *in.Min || in.Max != nil && v > *in.Max {
			return fmt.Sprintf("%s %s=%g is outside %s", owner, in.Key, v, in.Bounds())
		}
	case in.Type == "Boolean":
		if _, ok := x.(bool); !ok {
			return fmt.Sprintf("%s %s must be true or false", owner, in.Key)
		}
	case strings.HasPrefix(in.Type, "DateTime"):
		s, ok := x.(string)
		if _, err := time.Parse(time.RFC3339, s); !ok || err != nil {
			return fmt.Sprintf("%s %s must be an ISO 8601 date-time such as 2025-01-13T00:00:00Z", owner, in.Key)
		}
	default: // String, Color
		s, ok := x.(string)
		if !ok {
			return fmt.Sprintf("%s %s must be a string", owner, in.Key)
		}
		// the row's own default is accepted where its option list spells it
		// otherwise (MACD Histogram.plottype: default "column", options
		// "…, columns, …")
		if def, _ := in.Default.(string); len(in.Options) > 0 && !slices.Contains(in.Options, s) && def != s {
			return fmt.Sprintf("%s %s %q is not one of %s", owner, in.Key, s, strings.Join(in.Options, ", "))
		}
	}
	return ""
}

// Bounds prints the row's range as "lo..hi" (-inf or +inf where the docs give none).
func (in Input) Bounds() string {
	lo, hi := "-inf", "+inf"
	if in.Min != nil {
		lo = fmt.Sprint(*in.Min)
	}
	if in.Max != nil {
		hi = fmt.Sprint(*in.Max)
	}
	return lo + ".." + hi
}

func number(x any) (float64, bool) {
	switch v := x.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	}
	return 0, false
}
