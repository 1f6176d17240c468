package noren

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Echoed input is clipped by runes: a multi-byte string (CJK, emoji) cut by
// bytes would reach the message as \x escapes or invalid UTF-8.
func TestErrorEchoIsClippedByRunes(t *testing.T) {
	for _, prefix := range []string{"", "a", "ab"} {
		for _, body := range []string{strings.Repeat("紫", 100), strings.Repeat("🙂", 100)} {
			in := prefix + body
			err := DecodeObject("op", []byte(in), &map[string]any{})
			if err == nil {
				t.Fatalf("%q: no error", in)
			}
			msg := err.Error()
			if !utf8.ValidString(msg) || strings.Contains(msg, `\x`) {
				t.Errorf("%q: message cut mid-rune: %s", in, msg)
			}
			if !strings.Contains(msg, "…") {
				t.Errorf("%q: long input not clipped: %s", in, msg)
			}
		}
	}
}
