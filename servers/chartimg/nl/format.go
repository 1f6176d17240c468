package nl

import (
	"math"
	"strconv"
)

// appendQuoted appends s as %q prints it (strconv.Quote), copying plain
// printable ASCII as it is: the words quoted in reasoning lines almost
// always are.
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendG appends v as %g prints it (strconv.FormatFloat(v, 'g', -1, 64)),
// a whole number below 1e6 in magnitude as its digits: %g's shortest form
// switches to an exponent only from 1e6 (and keeps "-0").
func appendG(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e6 && (v != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}
