package extract

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Num is a float64 that decodes a JSON number or a numeric string ("1234.50",
// " 7 ", "1e3", "1,234.50" with thousands separators); "", "-" and null decode to 0. Anything else (a word, a boolean,
// NaN or Inf) is an upstream_error. It marshals as a plain JSON number.
type Num float64

// Float returns the value as float64.
func (n Num) Float() float64 { return float64(n) }

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	f, err := ParseNum(b)
	if err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("0"), nil
	}
	return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
}

// ParseNum parses one JSON value the way Num does.
func ParseNum(b []byte) (float64, error) {
	s, err := numText(b)
	if err != nil || s == "" {
		return 0, err
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) || !numeric(s) {
		return 0, notNumber(s, "a number")
	}
	return f, nil
}

// Int is an int64 that decodes a JSON number or numeric string ("42", "4249172.00",
// "1e3"); "", "-" and null decode to 0. A fraction, an out-of-range value or a
// non-numeric string is an upstream_error. It marshals as a plain JSON number.
type Int int64

// Int64 returns the value as int64.
func (n Int) Int64() int64 { return int64(n) }

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	v, err := ParseInt(b)
	if err != nil {
		return err
	}
	*n = Int(v)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (n Int) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, int64(n), 10), nil }

// ParseInt parses one JSON value the way Int does.
func ParseInt(b []byte) (int64, error) {
	s, err := numText(b)
	if err != nil || s == "" {
		return 0, err
	}
	if v, perr := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64); perr == nil {
		return v, nil
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil || !numeric(s) || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, notNumber(s, "an integer")
	}
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, notNumber(s, "an integer")
	}
	return int64(f), nil
}

// numText returns the numeric text of a JSON number or string ("" for null/""/"-").
func numText(b []byte) (string, error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		return "", nil
	case b[0] == '"':
		var s string
		if len(b) >= 2 && b[len(b)-1] == '"' && plainASCII(b[1:len(b)-1]) {
			s = string(b[1 : len(b)-1]) // fast path: no escapes to undo
		} else if err := json.Unmarshal(b, &s); err != nil {
			return "", envelope.New(envelope.UpstreamError, "a number is not valid JSON").WithCause(err)
		}
		s = strings.TrimSpace(s)
		if s == "-" {
			return "", nil
		}
		if strings.IndexByte(s, ',') >= 0 {
			s = strings.ReplaceAll(s, ",", "")
		}
		return s, nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		if !json.Valid(b) {
			return "", notNumber(string(b), "a number")
		}
		return string(b), nil
	}
	return "", envelope.New(envelope.UpstreamError, "expected a number, got %s", kind(b))
}

// numeric rejects the words strconv accepts ("inf", "nan", "infinity") and hex
// floats, keeping decimal numbers only.
func numeric(s string) bool {
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r == '.', r == '-', r == '+', r == 'e', r == 'E':
		default:
			return false
		}
	}
	return true
}

func notNumber(s, want string) *envelope.Error {
	return envelope.New(envelope.UpstreamError, "expected %s, got %q", want, Clip(s, 40))
}

// plainASCII reports whether a JSON string's contents need no unescaping.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c == '"' || c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}
