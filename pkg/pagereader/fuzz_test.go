package pagereader

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract: any body under any content type is read without a panic,
// into valid UTF-8 within the text bound, with links that are absolute
// http(s) URLs.
func FuzzExtract(f *testing.F) {
	f.Add([]byte(articleHTML), "text/html; charset=utf-8")
	f.Add([]byte("<html><head><meta charset=\"windows-1252\"><title>\x93Q\x94</title></head><body><p>\x80</p></body></html>"), "text/html")
	f.Add([]byte("plain\x00text\xff"), "text/plain")
	f.Add([]byte("<a href='javascript:alert(1)'>x</a><a href='//evil.test/x'>y</a>"), "")
	f.Add([]byte("\xef\xbb\xbf<p>bom</p>"), "application/xhtml+xml; charset=utf-16")
	base, _ := url.Parse("https://news.example/a/b")
	f.Fuzz(func(t *testing.T, body []byte, ctype string) {
		p, err := extractPage(body, ctype, base, 2000)
		if err != nil {
			return
		}
		if !utf8.ValidString(p.Text) || utf8.RuneCountInString(p.Text) > 2000 {
			t.Fatalf("text invalid or too long: %d runes", utf8.RuneCountInString(p.Text))
		}
		for _, l := range p.Links {
			if !strings.HasPrefix(l.URL, "http://") && !strings.HasPrefix(l.URL, "https://") {
				t.Fatalf("link %q", l.URL)
			}
		}
	})
}
