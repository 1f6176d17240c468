package settings

import (
	"hash/crc32"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// The packed form a chart_id carries after its birth part: the settings as
// bits (algorithm, the four divides, a 10-bit mask of stems with their own
// 四化 and 4 × 7-bit star ids each, a 7-bit count of brightness rows and per
// row a 7-bit star id and 12 × 3-bit values), then a 10-bit checksum, written
// in Crockford base32 like the birth part. Canonical: one config, one string.

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

type bitWriter struct {
	bits []bool
}

func (w *bitWriter) put(n int, v uint32) {
	for i := n - 1; i >= 0; i-- {
		w.bits = append(w.bits, v>>uint(i)&1 == 1)
	}
}

type bitReader struct {
	bits []bool
	pos  int
	bad  bool
}

func (r *bitReader) get(n int) uint32 {
	var v uint32
	for i := 0; i < n; i++ {
		if r.pos >= len(r.bits) {
			r.bad = true
			return 0
		}
		v <<= 1
		if r.bits[r.pos] {
			v |= 1
		}
		r.pos++
	}
	return v
}

func payload(c astro.Config) *bitWriter {
	w := &bitWriter{}
	w.put(1, uint32(c.Algorithm))
	w.put(1, uint32(c.YearDivide))
	w.put(1, uint32(c.HoroscopeDivide))
	w.put(1, uint32(c.AgeDivide))
	w.put(1, uint32(c.DayDivide))
	w.put(10, uint32(c.HasMutagens))
	for s := 0; s < 10; s++ {
		if c.HasMutagens&(1<<s) != 0 {
			for _, id := range c.Mutagens[s] {
				w.put(7, uint32(id))
			}
		}
	}
	ids := make([]int, 0, len(c.Brightness))
	for id := range c.Brightness {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	w.put(7, uint32(len(ids)))
	for _, id := range ids {
		w.put(7, uint32(id))
		for _, b := range c.Brightness[astro.StarID(id)] {
			w.put(3, uint32(b))
		}
	}
	// Later fields go last and only when set, so the strings of configs
	// without them are those of earlier releases.
	if c.AstroType != astro.AstroHeaven {
		w.put(2, uint32(c.AstroType))
	}
	return w
}

func sum(bits []bool) uint32 {
	b := make([]byte, (len(bits)+7)/8)
	for i, x := range bits {
		if x {
			b[i/8] |= 0x80 >> uint(i%8)
		}
	}
	return crc32.ChecksumIEEE(append(b, byte(len(bits)))) & 0x3ff
}

// Pack writes a non-default config in its chart_id form.
func Pack(c astro.Config) string {
	w := payload(c)
	w.put(10, sum(w.bits))
	for len(w.bits)%5 != 0 {
		w.bits = append(w.bits, false)
	}
	out := make([]byte, 0, len(w.bits)/5)
	for i := 0; i < len(w.bits); i += 5 {
		var d byte
		for j := 0; j < 5; j++ {
			d <<= 1
			if w.bits[i+j] {
				d |= 1
			}
		}
		out = append(out, alphabet[d])
	}
	return string(out)
}

// Unpack reads Pack's output back; a mistyped or truncated string is refused.
func Unpack(s string) (astro.Config, error) {
	var c astro.Config
	bad := func(why string) (astro.Config, error) {
		return astro.Config{}, errf("chart_id", "%s", why)
	}
	if len(s) == 0 || len(s) > 1024 {
		return bad("length")
	}
	s = strings.ToLower(s)
	r := &bitReader{}
	for i := 0; i < len(s); i++ {
		d := indexOf(s[i])
		if d < 0 {
			return bad("character " + string(rune(s[i])) + " is not base32")
		}
		for j := 4; j >= 0; j-- {
			r.bits = append(r.bits, d>>uint(j)&1 == 1)
		}
	}
	c.Algorithm = astro.Algorithm(r.get(1))
	c.YearDivide = astro.Divide(r.get(1))
	c.HoroscopeDivide = astro.Divide(r.get(1))
	c.AgeDivide = astro.AgeDivide(r.get(1))
	c.DayDivide = astro.DayDivide(r.get(1))
	c.HasMutagens = uint16(r.get(10))
	for st := 0; st < 10; st++ {
		if c.HasMutagens&(1<<st) != 0 {
			for k := 0; k < 4; k++ {
				c.Mutagens[st][k] = astro.StarID(r.get(7))
				if !c.Mutagens[st][k].Valid() {
					return bad("unknown star")
				}
			}
		}
	}
	n := int(r.get(7))
	for k := 0; k < n && !r.bad; k++ {
		id := astro.StarID(r.get(7))
		if !id.Valid() {
			return bad("unknown star")
		}
		var row [12]astro.Brightness
		for i := range row {
			row[i] = astro.Brightness(r.get(3))
		}
		if c.Brightness == nil {
			c.Brightness = map[astro.StarID][12]astro.Brightness{}
		}
		c.Brightness[id] = row
	}
	if r.bad {
		return bad("checksum mismatch; it was probably mistyped or truncated")
	}
	// A string of an earlier release ends with the checksum here; one with an
	// astroType has its 2 bits first. The checksum covers the length, and
	// the reading taken must re-pack to the same string.
	fields := r.pos
	for _, typed := range [2]bool{false, true} {
		cc, end := c, fields
		if typed {
			probe := bitReader{bits: r.bits, pos: end}
			cc.AstroType = astro.AstroType(probe.get(2))
			end += 2
			if probe.bad || cc.AstroType == astro.AstroHeaven || cc.AstroType > astro.AstroHuman {
				continue
			}
		}
		if !r.checksumAt(end) {
			continue
		}
		if tail := r.bits[end+10:]; len(tail) >= 5 || slices.Contains(tail, true) {
			continue
		}
		// Re-validate through the JSON form, so a packed config obeys the same rules.
		if back, err := Of(cc).Config(); err == nil && Pack(back) == s {
			return back, nil
		}
	}
	return bad("checksum mismatch; it was probably mistyped or truncated")
}

// checksumAt reports whether the 10 bits at end are the checksum of the bits before.
func (r *bitReader) checksumAt(end int) bool {
	if end+10 > len(r.bits) {
		return false
	}
	probe := bitReader{bits: r.bits, pos: end}
	return probe.get(10) == sum(r.bits[:end])
}

func indexOf(b byte) int {
	if b >= 'A' && b <= 'Z' {
		b += 'a' - 'A'
	}
	for i := 0; i < len(alphabet); i++ {
		if alphabet[i] == b {
			return i
		}
	}
	return -1
}
