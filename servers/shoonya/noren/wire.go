// Package noren is the client for the Shoonya (Finvasia) Noren OMS REST API:
// both login generations (legacy QuickAuth with jData/jKey bodies, and OAuth
// GenAcsTok with a Bearer header), the stringly-typed response decoding, and
// the mapping of Noren's in-band errors onto envelope codes. Facts follow
// the public Noren API sources (the official Shoonya Python SDK and its docs).
package noren

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// Num is a Noren number. Noren sends every number as a JSON string ("118.55",
// "1700000000.0"); this also accepts real JSON numbers, null and "", which
// decode to 0. A string that is not a number is an error, so a garbled body is
// caught instead of silently becoming zero.
type Num float64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*n = 0
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		f, err := ParseNum(s)
		if err != nil {
			return err
		}
		*n = Num(f)
		return nil
	}
	f, err := finite(strconv.ParseFloat(string(b), 64))
	if err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

var (
	errNotFinite    = errors.New("noren: number is not finite")
	errTextExpected = errors.New("noren: an object or array where text was expected")
)

// finite refuses NaN and ±Inf, which ParseFloat accepts but JSON cannot carry.
func finite(f float64, err error) (float64, error) {
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return 0, errNotFinite
	}
	return f, err
}

// ParseNum parses a Noren numeric string; "" (and the Python client's "None")
// is 0.
func ParseNum(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "None" {
		return 0, nil
	}
	return finite(strconv.ParseFloat(s, 64))
}

// Str is a Noren text value that tolerates a JSON number or null where a
// string is documented (samples are not consistent).
type Str string

// UnmarshalJSON implements json.Unmarshaler.
func (s *Str) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*s = ""
		return nil
	}
	if b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = Str(v)
		return nil
	}
	if b[0] == '{' || b[0] == '[' {
		return errTextExpected
	}
	*s = Str(b)
	return nil
}

// Status is the in-band outcome every Noren object carries.
type Status struct {
	Stat        string `json:"stat"`
	Emsg        string `json:"emsg"`
	RequestTime string `json:"request_time"`
}

// OK reports stat == "Ok" (case-insensitive: samples vary).
func (s Status) OK() bool { return strings.EqualFold(s.Stat, "Ok") }
