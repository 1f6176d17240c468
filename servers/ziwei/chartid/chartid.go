// Package chartid names a chart by its birth input: a chart_id is the birth
// Spec packed into 50 bits plus a 10-bit checksum, written as "zw1" and 12
// characters of Crockford base32 (lower case, URL-safe). It is deterministic
// and stateless: any replica decodes it without a store. Charts under
// non-default settings (iztro's astro.config) append "-" and the packed
// settings (settings.Pack); ids without that part are default-settings charts.
//
// Bit layout (most significant first): year−1900 (8), month (4), day (5),
// lunar, leap month, fixLeap, female (4 × 1), clock? (1), slot index or clock
// minutes (11), longitude? (1), longitude in 0.01° + 18000 (16), checksum (10).
package chartid

import (
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/birth"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// Prefix names version 1 of the encoding.
const Prefix = "zw1"

// Len is the length of a version-1 chart_id.
const Len = len(Prefix) + 12

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

var decodeMap = func() (m [256]int8) {
	for i := range m {
		m[i] = -1
	}
	for i := 0; i < len(alphabet); i++ {
		m[alphabet[i]] = int8(i)
		m[strings.ToUpper(alphabet[i : i+1])[0]] = int8(i)
	}
	// Crockford's readings of look-alikes.
	for _, p := range [][2]byte{{'o', '0'}, {'O', '0'}, {'i', '1'}, {'I', '1'}, {'l', '1'}, {'L', '1'}} {
		m[p[0]] = m[p[1]]
	}
	return m
}()

// Error is a chart_id that cannot be decoded; its message names the fix.
type Error struct{ Reason string }

func (e *Error) Error() string {
	return "chart_id is not valid (" + e.Reason + "): pass a chart_id exactly as initialize_chart returned it (\"zw1\" + 12 characters, then any settings part after \"-\"), or call initialize_chart again"
}

// Encode packs a valid Spec. It fails only when the Spec does not validate.
func Encode(s birth.Spec) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	var v uint64
	put := func(bits int, x int) { v = v<<bits | uint64(x)&(1<<bits-1) }
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	put(8, s.Year-astro.MinYear)
	put(4, s.Month)
	put(5, s.Day)
	put(1, flag(s.Lunar))
	put(1, flag(s.LeapMonth))
	put(1, flag(s.FixLeap))
	put(1, flag(s.Gender == astro.Female))
	if s.Clock >= 0 {
		put(1, 1)
		put(11, s.Clock)
	} else {
		put(1, 0)
		put(11, s.TimeIndex)
	}
	if s.HasLongitude {
		put(1, 1)
		put(16, s.LonCenti+18000)
	} else {
		put(1, 0)
		put(16, 0)
	}
	v = v<<10 | uint64(checksum(v))
	var b [12]byte
	for i := 11; i >= 0; i-- {
		b[i] = alphabet[v&31]
		v >>= 5
	}
	return Prefix + string(b[:]), nil
}

func checksum(data uint64) uint32 {
	var b [8]byte
	for i := range b {
		b[i] = byte(data >> (56 - 8*i))
	}
	return crc32.ChecksumIEEE(b[:]) & 0x3ff
}

// Decode unpacks a chart_id. Surrounding spaces and upper case are accepted.
func Decode(id string) (birth.Spec, error) {
	var s birth.Spec
	id = strings.TrimSpace(id)
	if len(id) < len(Prefix) || !strings.EqualFold(id[:len(Prefix)], Prefix) {
		if len(id) >= 2 && strings.EqualFold(id[:2], "zw") {
			return s, &Error{Reason: "unknown version; this server reads " + Prefix}
		}
		return s, &Error{Reason: "it must start with " + Prefix}
	}
	body := id[len(Prefix):]
	if len(body) != 12 {
		return s, &Error{Reason: fmt.Sprintf("it has %d characters after %s, want 12", len(body), Prefix)}
	}
	var v uint64
	for i := 0; i < len(body); i++ {
		d := decodeMap[body[i]]
		if d < 0 {
			return s, &Error{Reason: fmt.Sprintf("character %q is not base32", body[i])}
		}
		v = v<<5 | uint64(d)
	}
	data := v >> 10
	if uint32(v&0x3ff) != checksum(data) {
		return s, &Error{Reason: "checksum mismatch; it was probably mistyped or truncated"}
	}
	get := func(bits int) int {
		x := int(data >> (50 - bits) & (1<<bits - 1))
		data = data << bits & (1<<50 - 1)
		return x
	}
	s.Year = get(8) + astro.MinYear
	s.Month = get(4)
	s.Day = get(5)
	s.Lunar = get(1) == 1
	s.LeapMonth = get(1) == 1
	s.FixLeap = get(1) == 1
	if get(1) == 1 {
		s.Gender = astro.Female
	}
	clock := get(1) == 1
	t := get(11)
	if clock {
		s.Clock = t
	} else {
		s.TimeIndex, s.Clock = t, -1
	}
	hasLon := get(1) == 1
	lon := get(16)
	if hasLon {
		s.HasLongitude, s.LonCenti = true, lon-18000
	} else if lon != 0 {
		return birth.Spec{}, &Error{Reason: "non-canonical longitude field"}
	}
	if err := s.Validate(); err != nil {
		return birth.Spec{}, &Error{Reason: "fields out of range: " + err.Error()}
	}
	return s, nil
}

// Sep separates the birth part of a chart_id from its settings part. A
// chart_id without one (every id issued before settings existed) is a chart
// under iztro's default settings.
const Sep = "-"

// EncodeWith names a chart and its settings: the version-1 id of the birth,
// then, for non-default settings only, Sep and settings.Pack(cfg). Two charts
// with different settings never share an id.
func EncodeWith(s birth.Spec, cfg astro.Config) (string, error) {
	id, err := Encode(s)
	if err != nil || cfg.IsDefault() {
		return id, err
	}
	return id + Sep + settings.Pack(cfg), nil
}

// DecodeWith reads an id from EncodeWith (or Encode: default settings).
func DecodeWith(id string) (birth.Spec, astro.Config, error) {
	id = strings.TrimSpace(id)
	base, packed, has := strings.Cut(id, Sep)
	s, err := Decode(base)
	if err != nil || !has {
		return s, astro.Config{}, err
	}
	cfg, err := settings.Unpack(packed)
	if err != nil {
		return birth.Spec{}, astro.Config{}, &Error{Reason: "settings part: " + err.(*settings.Error).Message}
	}
	return s, cfg, nil
}
