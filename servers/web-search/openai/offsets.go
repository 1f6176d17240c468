package openai

import (
	"slices"
	"strings"
)

// The API's citation offsets count Unicode code points of the text: in the
// three recorded answers (testdata/contract) every span sliced by code points
// is exactly its "([domain](url))" marker, also after non-ASCII characters,
// and sliced by UTF-8 bytes it is not. Those recordings have no character
// outside the Basic Multilingual Plane before a citation, where code points
// and UTF-16 units (what JavaScript counts) differ, so for such texts we also
// try the UTF-16 reading and keep whichever lands on the citation.

// CitedSpan converts the annotation range [start, end) of text into a byte
// range. It never panics: out-of-range, negative or reversed offsets are
// clamped or refused (ok false). url (the citation's) picks between the
// code-point and UTF-16 readings when they differ.
func CitedSpan(text string, start, end int, url string) (bs, be int, ok bool) {
	bs, be, ok = codePointSpan(text, start, end)
	if !hasAstral(text) {
		return bs, be, ok
	}
	score := -1
	if ok {
		score = citationScore(text[bs:be], url)
	}
	if us, ue, uok := utf16Span(text, start, end); uok && citationScore(text[us:ue], url) > score {
		return us, ue, true
	}
	return bs, be, ok
}

// citationScore ranks how well span matches what the API puts under an
// annotation: 2 for the whole "([domain](url))" marker, 1 for text naming
// the citation's host, 0 otherwise.
func citationScore(span, url string) int {
	if !looksLikeCitation(span, url) {
		return 0
	}
	if isMarker(span) && strings.HasSuffix(strings.TrimSpace(span), ")") {
		return 2
	}
	return 1
}

// codePointSpan maps code-point offsets to byte offsets. end past the text is
// clamped to its end; start past it, negative offsets or end < start are
// refused. Invalid UTF-8 counts one code point per bad byte, as Go ranges do.
func codePointSpan(text string, start, end int) (int, int, bool) {
	if start < 0 || end < start {
		return 0, 0, false
	}
	bs, be := -1, -1
	n := 0
	for i := range text {
		if n == start {
			bs = i
		}
		if n == end {
			be = i
			break
		}
		n++
	}
	if bs < 0 {
		if n != start { // start lies past the text
			return 0, 0, false
		}
		bs = len(text)
	}
	if be < 0 {
		be = len(text)
	}
	return bs, be, true
}

// utf16Span maps UTF-16 unit offsets to byte offsets; an offset inside a
// surrogate pair snaps outward to the whole character.
func utf16Span(text string, start, end int) (int, int, bool) {
	if start < 0 || end < start {
		return 0, 0, false
	}
	bs, be := -1, -1
	u := 0
	for i, r := range text {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if bs < 0 && u+w > start {
			bs = i
		}
		if be < 0 && u >= end {
			be = i
			break
		}
		u += w
	}
	if bs < 0 {
		if u < start {
			return 0, 0, false
		}
		bs = len(text)
	}
	if be < 0 {
		be = len(text)
	}
	if be < bs {
		be = bs
	}
	return bs, be, true
}

func hasAstral(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 { // a 4-byte UTF-8 sequence starts here
			return true
		}
	}
	return false
}

// looksLikeCitation reports whether span is the citation's marker or text
// naming its host: what the API puts under an annotation.
func looksLikeCitation(span, url string) bool {
	if span == "" {
		return false
	}
	if url != "" && strings.Contains(span, url) {
		return true
	}
	if h := hostOf(url); h != "" && strings.Contains(strings.ToLower(span), h) {
		return true
	}
	return false
}

// isMarker reports whether span is a citation marker such as
// "([axios.com](https://…))" rather than cited prose.
func isMarker(span string) bool {
	s := strings.TrimSpace(span)
	return (strings.HasPrefix(s, "([") || strings.HasPrefix(s, "[")) && strings.Contains(s, "](")
}

// offsetIndex maps the code-point offsets of a part's annotations to bytes
// in one pass (same rules as codePointSpan).
type offsetIndex struct {
	cps   []int // sorted, unique code-point offsets asked for
	bytes []int // their byte offsets; -1 past the text
	n     int   // code points in the text
	size  int   // bytes in the text
}

func newOffsetIndex(text string, anns []Annotation) *offsetIndex {
	x := &offsetIndex{cps: make([]int, 0, 2*len(anns)), size: len(text)}
	for _, a := range anns {
		if a.StartIndex >= 0 {
			x.cps = append(x.cps, a.StartIndex)
		}
		if a.EndIndex >= 0 {
			x.cps = append(x.cps, a.EndIndex)
		}
	}
	slices.Sort(x.cps)
	x.cps = slices.Compact(x.cps)
	x.bytes = make([]int, len(x.cps))
	k, n := 0, 0
	for i := range text {
		for k < len(x.cps) && x.cps[k] == n {
			x.bytes[k] = i
			k++
		}
		n++
	}
	x.n = n
	for ; k < len(x.cps); k++ {
		x.bytes[k] = -1
		if x.cps[k] == n {
			x.bytes[k] = len(text)
		}
	}
	return x
}

func (x *offsetIndex) at(cp int) int {
	i, found := slices.BinarySearch(x.cps, cp)
	if !found {
		return -1
	}
	return x.bytes[i]
}

func (x *offsetIndex) span(start, end int) (int, int, bool) {
	if start < 0 || end < start || start > x.n {
		return 0, 0, false
	}
	bs, be := x.at(start), x.size
	if end < x.n {
		be = x.at(end)
	}
	if bs < 0 || be < 0 {
		return 0, 0, false
	}
	return bs, be, true
}
