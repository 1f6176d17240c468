package nl

// Plain scanners for the three shapes extract takes out of the text before
// lexing. Each finds exactly what a regular expression did (leftmost-first,
// as Go's regexp; scan_test.go fuzzes each against its expression) at a
// fraction of the cost: the size pattern's backtracking was ~18% of a parse.

// isWordByte is regexp's \w (ASCII only; a byte of a multi-byte rune is not).
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }

// isSpaceByte is regexp's \s: [\t\n\f\r ].
func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// boundary is regexp's \b at i: a word byte on exactly one side.
func boundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// runOf is how many bytes from i satisfy ok.
func runOf(s string, i int, ok func(byte) bool) int {
	j := i
	for j < len(s) && ok(s[j]) {
		j++
	}
	return j - i
}

// match is one match's [start, end) and its two groups' [start, end).
type match [6]int

func isExplicitByte(c byte) bool { return isWordByte(c) || c == '.' || c == '!' }

// explicitAt matches \b([A-Za-z][A-Za-z0-9_]{1,24}):([A-Za-z0-9_.!]{1,30}) at p.
// The exchange's run of word bytes cannot give back a ':', so it must end
// right at the colon; the symbol takes up to 30 bytes.
func explicitAt(s string, p int) (match, bool) {
	if !isLetter(s[p]) || !boundary(s, p) {
		return match{}, false
	}
	l := runOf(s, p, isWordByte)
	if l < 2 || l > 25 || p+l >= len(s) || s[p+l] != ':' {
		return match{}, false
	}
	q := p + l + 1
	r := min(runOf(s, q, isExplicitByte), 30)
	if r == 0 {
		return match{}, false
	}
	return match{p, q + r, p, p + l, q, q + r}, true
}

// pairAt matches \b([A-Za-z]{3,5})(?:\s?/\s?|-)([A-Za-z]{3,5})\b at p. Both
// letter runs are whole: a shorter one is followed by a letter, which neither
// the separator nor \b accepts.
func pairAt(s string, p int) (match, bool) {
	if !isLetter(s[p]) || !boundary(s, p) {
		return match{}, false
	}
	l := runOf(s, p, isLetter)
	if l < 3 || l > 5 {
		return match{}, false
	}
	i := p + l
	q := -1
	switch {
	case i+1 < len(s) && isSpaceByte(s[i]) && s[i+1] == '/':
		q = i + 2
	case i < len(s) && s[i] == '/':
		q = i + 1
	case i < len(s) && s[i] == '-':
		q = i + 1
	default:
		return match{}, false
	}
	if s[q-1] == '/' && q < len(s) && isSpaceByte(s[q]) {
		q++ // the optional space after the slash (the quote cannot start with one)
	}
	r := runOf(s, q, isLetter)
	if r < 3 || r > 5 || q+r < len(s) && isWordByte(s[q+r]) {
		return match{}, false
	}
	return match{p, q + r, p, p + l, q, q + r}, true
}

// sizeAt matches (?i)\b(\d{3,4})\s?(?:x|×|by)\s?(\d{3,4})(?:\s?(?:px|pixels?))?\b
// at p. Both digit runs are whole (a shorter one is followed by a digit, which
// neither the separator nor the suffix or \b accepts); the unit suffix is
// tried first, as the greedy ? does, and dropped when no \b follows it.
func sizeAt(s string, p int) (match, bool) {
	if !isDigit(s[p]) || !boundary(s, p) {
		return match{}, false
	}
	d := runOf(s, p, isDigit)
	if d < 3 || d > 4 {
		return match{}, false
	}
	i := p + d
	if i < len(s) && isSpaceByte(s[i]) {
		i++ // the separator cannot start with a space
	}
	var k int
	switch {
	case i < len(s) && (s[i] == 'x' || s[i] == 'X'):
		k = i + 1
	case i+1 < len(s) && s[i] == 0xC3 && s[i+1] == 0x97: // ×
		k = i + 2
	case i+1 < len(s) && (s[i] == 'b' || s[i] == 'B') && (s[i+1] == 'y' || s[i+1] == 'Y'):
		k = i + 2
	default:
		return match{}, false
	}
	if k < len(s) && isSpaceByte(s[k]) {
		k++
	}
	r := runOf(s, k, isDigit)
	if r < 3 || r > 4 {
		return match{}, false
	}
	e := k + r
	t := e
	if t < len(s) && isSpaceByte(s[t]) {
		t++ // "px" after one space; without it the suffix starts at e (a space is no p)
	}
	for _, n := range unitSuffixes(s, t) {
		if boundary(s, t+n) {
			return match{p, t + n, p, p + d, k, e}, true
		}
	}
	if !boundary(s, e) {
		return match{}, false
	}
	return match{p, e, p, p + d, k, e}, true
}

// unitSuffixes are the lengths of px, pixels and pixel at t, in the order the
// alternation tries them (case-insensitive: s also folds to ſ, U+017F).
func unitSuffixes(s string, t int) []int {
	var out [3]int
	n := 0
	if hasFold(s, t, "px") {
		out[n] = 2
		n++
	}
	if hasFold(s, t, "pixel") {
		if e := t + 5; e < len(s) && (s[e] == 's' || s[e] == 'S') {
			out[n] = 6
			n++
		} else if e+1 < len(s) && s[e] == 0xC5 && s[e+1] == 0xBF {
			out[n] = 7
			n++
		}
		out[n] = 5
		n++
	}
	return out[:n]
}

// hasFold reports whether s[t:] starts with lower (ASCII letters) in any case.
func hasFold(s string, t int, lower string) bool {
	if t+len(lower) > len(s) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		if s[t+i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// findAll is regexp's FindAllStringSubmatchIndex(s, n) for a matcher whose
// matches are never empty: successive, non-overlapping, leftmost first.
// Every pattern here starts with \b and a word byte, so a match can only
// start where a run of word bytes does: the rest of a run is skipped.
func findAll(s string, n int, at func(string, int) (match, bool), out []match) []match {
	p := 0
	for len(out) < n {
		for p < len(s) && !isWordByte(s[p]) {
			p++
		}
		if p == len(s) {
			break
		}
		if m, ok := at(s, p); ok {
			out = append(out, m)
			p = m[1]
			continue
		}
		for p < len(s) && isWordByte(s[p]) {
			p++
		}
	}
	return out
}
