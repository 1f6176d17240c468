package tools

import (
	"net/url"
	"testing"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// FuzzResourceURI: any URI a client sends is checked and encoded without a
// panic; the encoded form is ASCII without spaces, encoding it again changes
// nothing, and it decodes back to the raw text.
func FuzzResourceURI(f *testing.F) {
	for _, s := range []string{"ziwei://stars/紫微", "ziwei://stars/%E7%B4%AB%E5%BE%AE", "ziwei://chart/zw1b9c900r000sv?language=en-US",
		"ziwei://chart/", "ziwei://chart/%zz", "ziwei://stars/ Tai Yang", "ziwei://stars/tiānfǔ", "\xff\xfe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		_ = checkResourceURI(uri)
		enc := iriToURI(uri)
		for i := 0; i < len(enc); i++ {
			if enc[i] >= 0x80 || enc[i] == ' ' {
				t.Fatalf("iriToURI(%q) = %q keeps byte %#x", uri, enc, enc[i])
			}
		}
		if again := iriToURI(enc); again != enc {
			t.Fatalf("not idempotent: %q → %q", enc, again)
		}
		if dec, err := url.PathUnescape(enc); err == nil && utf8.ValidString(uri) && !containsPercent(uri) && dec != uri {
			t.Fatalf("%q → %q → %q", uri, enc, dec)
		}
		_, _ = astro.StarByName(starURI(enc))
		_, _ = chartURI(enc)
	})
}

func containsPercent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] == '+' {
			return true
		}
	}
	return false
}
