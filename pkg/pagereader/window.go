package pagereader

import "unicode/utf8"

// Window is the part of p.Text from rune start, at most max runes, cut at
// the last paragraph or line break inside the window when there is one (so
// a page is not cut mid-sentence); next is where the following window
// starts (0 when this one reaches the end), total the text's length in runes.
func (p Page) Window(start, max int) (text string, next, total int) {
	total = utf8.RuneCountInString(p.Text)
	if start >= total {
		return "", 0, total
	}
	s := p.Text
	for i := range s {
		if start == 0 {
			s = s[i:]
			break
		}
		start--
	}
	first := total - utf8.RuneCountInString(s)
	if utf8.RuneCountInString(s) <= max {
		return s, 0, total
	}
	cut := runePrefix(s, max)
	if i := lastBreak(cut); i > len(cut)/2 {
		cut = cut[:i]
	}
	return cut, first + utf8.RuneCountInString(cut), total
}

// lastBreak is the byte offset just after the last blank line, else the
// last newline, of s (-1 if none).
func lastBreak(s string) int {
	for i := len(s) - 2; i >= 0; i-- {
		if s[i] == '\n' && s[i+1] == '\n' {
			return i + 2
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			return i + 1
		}
	}
	return -1
}
