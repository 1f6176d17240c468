// Package extracttest checks, in a package's tests, that its messages echo
// outside input through extract.Clip: cut by runes, never mid-rune.
package extracttest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// LongInputs are long multi-byte strings (CJK, emoji) after 0, 1 and 2 ASCII
// bytes, so that a cut by bytes at any limit below 100 lands mid-rune for
// at least one of them.
func LongInputs() []string {
	var out []string
	for _, prefix := range []string{"", "a", "ab"} {
		for _, body := range []string{strings.Repeat("紫", 100), strings.Repeat("🙂", 100)} {
			out = append(out, prefix+body)
		}
	}
	return out
}

// RuneSafeEcho fails t unless echo refuses every LongInputs string with a
// message that is valid UTF-8, has no \x escape (a %q of a cut rune) and
// shows the clip's ellipsis.
func RuneSafeEcho(t testing.TB, echo func(in string) error) {
	t.Helper()
	for _, in := range LongInputs() {
		err := echo(in)
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
