package openai

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary bodies through Decode, Parse and Render: never a
// panic, every range selects its snippet in the answer, no tracking
// parameter survives in a citation.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "contract", "*.json"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(b, 3)
		}
	}
	f.Add([]byte(`{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"é 🚀 x. ([a.b](https://a.b/?utm_source=openai))","annotations":[{"type":"url_citation","start_index":7,"end_index":48,"url":"https://a.b/?utm_source=openai","title":"t"},{"type":"url_citation","start_index":-4,"end_index":900,"url":"http://c.d/x","title":""}]}]}]}`), 1)
	f.Add([]byte(`{"status":"incomplete","output":[{"type":"web_search_call","action":null},{"type":"message","content":[{"type":"refusal","refusal":"no"}]}]}`), 0)
	f.Fuzz(func(t *testing.T, body []byte, max int) {
		r, err := Decode(body)
		if err != nil {
			return
		}
		res := Parse(r)
		// The cache stores results as JSON: the round trip must keep rendering.
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var back Result
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		out := back.Render(max % 10)
		for _, c := range out.Citations {
			if hasTracking(c.URL) {
				t.Fatalf("tracking left in %q", c.URL)
			}
			if c.Snippet != "" && out.Answer != "" && utf8.Valid(body) && !strings.Contains(out.Answer, c.Snippet) {
				t.Fatalf("snippet %q is not text of the answer %q", c.Snippet, out.Answer)
			}
		}
		if utf8.ValidString(string(body)) && !utf8.ValidString(out.Answer) {
			t.Fatalf("valid input gave an invalid answer")
		}
	})
}

// hasTracking reports a tracking parameter in u's query.
func hasTracking(u string) bool {
	// The query as a URL parser sees it: a "?" inside the fragment is not one.
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	for _, kv := range strings.Split(p.RawQuery, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if isTracking(k) {
			return true
		}
	}
	return false
}

// FuzzCitedSpan: any text and offsets give a byte range inside the text, on
// character boundaries, or ok=false; never a panic.
func FuzzCitedSpan(f *testing.F) {
	f.Add("é 🚀 x. ([a.b](https://a.b/))", 7, 29, "https://a.b/")
	f.Add("👩‍🚀🇺🇸 ([x.y](http://x.y))", 5, 25, "http://x.y")
	f.Add("", 0, 0, "")
	f.Add("abc", 5, 2, "")
	f.Add("\xff\xfe([a](b))", 2, 9, "b")
	f.Fuzz(func(t *testing.T, text string, start, end int, url string) {
		bs, be, ok := CitedSpan(text, start, end, url)
		if !ok {
			return
		}
		if bs < 0 || bs > be || be > len(text) {
			t.Fatalf("span %d..%d of %d bytes", bs, be, len(text))
		}
		if utf8.ValidString(text) && (!utf8.ValidString(text[:bs]) || !utf8.ValidString(text[bs:be])) {
			t.Fatalf("span %d..%d splits a character of %q", bs, be, text)
		}
	})
}

// FuzzCleanURL: cleaning never panics, keeps an http(s) URL, drops every
// tracking parameter and is idempotent.
func FuzzCleanURL(f *testing.F) {
	f.Add("https://www.axios.com/local/x?utm_source=chatgpt.com")
	f.Add("https://a.b/p?id=1&utm_medium=x&UTM_source=openai&fbclid=9#:~:text=hi")
	f.Add("http://a.b/%zz?q=%e2%82")
	f.Fuzz(func(t *testing.T, raw string) {
		clean, _, key, ok := CleanURL(raw)
		if !ok {
			return
		}
		if !strings.HasPrefix(clean, "http://") && !strings.HasPrefix(clean, "https://") {
			t.Fatalf("%q cleaned to %q", raw, clean)
		}
		if hasTracking(clean) {
			t.Fatalf("tracking left in %q", clean)
		}
		again, _, key2, ok := CleanURL(clean)
		if !ok || again != clean || key2 != key {
			t.Fatalf("not idempotent: %q → %q → %q", raw, clean, again)
		}
	})
}

// FuzzOffsetIndex: the one-pass index agrees with codePointSpan on BMP text.
func FuzzOffsetIndex(f *testing.F) {
	f.Add("héllo ([a.b](https://a.b/)) wörld", 6, 27, 0, 40)
	f.Add("", 0, 0, 1, 1)
	f.Fuzz(func(t *testing.T, text string, s1, e1, s2, e2 int) {
		if hasAstral(text) {
			return
		}
		anns := []Annotation{{StartIndex: s1, EndIndex: e1}, {StartIndex: s2, EndIndex: e2}}
		x := newOffsetIndex(text, anns)
		for _, a := range anns {
			b1, b2, ok := x.span(a.StartIndex, a.EndIndex)
			c1, c2, cok := codePointSpan(text, a.StartIndex, a.EndIndex)
			if ok != cok || ok && (b1 != c1 || b2 != c2) {
				t.Fatalf("%q %d..%d: index %d..%d %v, walk %d..%d %v", text, a.StartIndex, a.EndIndex, b1, b2, ok, c1, c2, cok)
			}
		}
	})
}
