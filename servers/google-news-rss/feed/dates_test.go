package feed

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestNumericZones(t *testing.T) {
	const d = "Fri, 25 Sep 2026 13:53:48"
	cases := []struct{ name, in, want string }{
		{"google's form", "<item><pubDate>" + d + " GMT</pubDate></item>", "<item><pubDate>" + d + " +0000</pubDate></item>"},
		{"two items", "<pubDate>" + d + " GMT</pubDate><pubDate>" + d + " GMT</pubDate>", "<pubDate>" + d + " +0000</pubDate><pubDate>" + d + " +0000</pubDate>"},
		{"other zone", "<pubDate>" + d + " EST</pubDate>", ""},
		{"no seconds", "<pubDate>Fri, 25 Sep 2026 13:53 GMT</pubDate>", ""},
		{"padded", "<pubDate> " + d + " GMT</pubDate>", ""},
		{"entity inside", "<pubDate>Fri,&#32;25 Sep 2026 13:53:48 GMT</pubDate>", ""},
		{"attribute", `<pubDate x="1">` + d + " GMT</pubDate>", ""},
		{"bad date, then a good one", "<pubDate>" + "Fri, 35 Sep 2026 13:53:48 GMT</pubDate><pubDate>" + d + " GMT</pubDate>",
			"<pubDate>Fri, 35 Sep 2026 13:53:48 GMT</pubDate><pubDate>" + d + " +0000</pubDate>"},
		{"cdata anywhere", "<description><![CDATA[x]]></description><pubDate>" + d + " GMT</pubDate>", ""},
		{"stray close", "</pubDate> GMT</pubDate>", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := string(numericZones([]byte(tc.in))); got != want {
				t.Fatalf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// FuzzNumericZones: the rewrite never changes what Parse returns.
func FuzzNumericZones(f *testing.F) {
	f.Add(fakeFeed(3, false))
	f.Add(fakeFeed(2, true))
	f.Add([]byte(`<rss><channel><pubDate>Fri, 25 Sep 2026 13:53:48 GMT</pubDate><item><title>t</title><pubDate>Fri, 25 Sep 2026 13:53:48.25 GMT</pubDate></item><!-- <pubDate>Sat, 26 Sep 2026 01:02:03 GMT</pubDate> --></channel></rss>`))
	// markup inside a text element: gofeed keeps it as the link's text
	f.Add([]byte(`<rss><ChAnnel><link><pubDate>Tue, 01 Nov 0000 0:00:00 GMT</pubDate></A>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		orig := bytes.Clone(body)
		got, gerr := parse(body, "US:en", numericZones)
		want, werr := parse(body, "US:en", func(b []byte) []byte { return b })
		if !bytes.Equal(body, orig) {
			t.Fatal("the body was modified in place")
		}
		if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("rewritten: %+v %v\noriginal:  %+v %v", got, gerr, want, werr)
		}
	})
}

// BenchmarkNormalizeDates: Parse of 100 items with and without the rewrite.
func BenchmarkNormalizeDates(b *testing.B) {
	body := fakeFeed(100, false)
	if !strings.Contains(string(body), " GMT</pubDate>") {
		b.Fatal("the fake no longer writes Google's dates")
	}
	for _, c := range []struct {
		name  string
		zones func([]byte) []byte
	}{{"rewritten", numericZones}, {"as-sent", func(b []byte) []byte { return b }}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse(body, "US:en", c.zones); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
