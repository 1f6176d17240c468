package openai

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// msg builds a response with one output_text part; cites are (marker text
// appended after prose) pairs, offsets computed in code points or UTF-16.
func msg(utf16 bool, parts ...string) *Response {
	var text strings.Builder
	var anns []Annotation
	n := 0
	count := func(s string) int {
		if !utf16 {
			return utf8.RuneCountInString(s)
		}
		k := 0
		for _, r := range s {
			k++
			if r >= 0x10000 {
				k++
			}
		}
		return k
	}
	for _, p := range parts {
		if url, ok := strings.CutPrefix(p, "@"); ok {
			m := "([" + hostOf(url) + "](" + url + "))"
			anns = append(anns, Annotation{Type: "url_citation", StartIndex: n, EndIndex: n + count(m), URL: url, Title: "T " + hostOf(url)})
			p = m
		}
		text.WriteString(p)
		n += count(p)
	}
	return &Response{Status: "completed", Output: []OutputItem{{Type: "message", Content: []ContentPart{{Type: "output_text", Text: text.String(), Annotations: anns}}}}}
}

func TestRenderSnippets(t *testing.T) {
	cases := []struct {
		name     string
		r        *Response
		max      int
		answer   string
		snippets []string
	}{
		{"sentence before the marker", msg(false, "First point. Second point, with détails. ", "@https://a.com/x?utm_source=openai"), 0,
			"First point. Second point, with détails. [1]", []string{"Second point, with détails."}},
		{"abbreviations do not end sentences", msg(false, "Shares of Warner Bros. Discovery rose 3% in the U.S. market today. ", "@https://b.com/"), 0,
			"Shares of Warner Bros. Discovery rose 3% in the U.S. market today. [1]", []string{"Shares of Warner Bros. Discovery rose 3% in the U.S. market today."}},
		{"two markers after one sentence", msg(false, "One claim. ", "@https://a.com/", " ", "@https://b.com/"), 0,
			"One claim. [1] [2]", []string{"One claim.", "One claim."}},
		{"a short sentence takes the one before", msg(false, "Vercel raised a Series F at a high valuation. (See the blog.) ", "@https://vercel.com/blog"), 0,
			"Vercel raised a Series F at a high valuation. (See the blog.) [1]", []string{"Vercel raised a Series F at a high valuation. (See the blog.)"}},
		{"list item", msg(false, "Reading:\n- The statement sets the base rate. ", "@https://c.ae/"), 0,
			"Reading:\n- The statement sets the base rate. [1]", []string{"The statement sets the base rate."}},
		{"CJK sentence end", msg(false, "第一句。第二句很重要。", "@https://d.cn/"), 0,
			"第一句。第二句很重要。[1]", []string{"第二句很重要。"}},
		{"duplicate URL differing in tracking", msg(false, "A. ", "@https://a.com/p?utm_source=openai", " B. ", "@https://a.com/p?utm_source=chatgpt.com"), 0,
			"A. [1] B. [1]", []string{"A."}},
		{"cut to maxResults drops the claims with their citations", msg(false, "A. ", "@https://a.com/", " B. ", "@https://b.com/", " C. ", "@https://c.com/"), 2,
			"A. [1] B. [2]", []string{"A.", "B."}},
		{"a claim cited by a kept and a cut source stays", msg(false, "A. ", "@https://a.com/", "@https://c.com/", " B. ", "@https://c.com/", "@https://a.com/", " D. ", "@https://d.com/"), 1,
			"A. [1] B. [1]", []string{"A."}},
		{"a cut list item goes with its line", msg(false, "Top:\n- A one. ", "@https://a.com/", "\n- B two. ", "@https://b.com/", "\n- C three. ", "@https://a.com/"), 1,
			"Top:\n- A one. [1]\n- C three. [1]", []string{"A one."}},
		{"a lead-in whose list was cut goes too", msg(false, "A. ", "@https://a.com/", "\n\nFurther reading:\n- B two. ", "@https://b.com/", "\n- C three. ", "@https://c.com/"), 1,
			"A. [1]", []string{"A."}},
		{"a heading whose section was cut goes too", msg(false, "A. ", "@https://a.com/", "\n\n**Sources**\n\n- B two. ", "@https://b.com/", "\n\n## More\nC three. ", "@https://c.com/"), 1,
			"A. [1]", []string{"A."}},
		{"a lead-in followed by another section loses only itself", msg(false, "A. ", "@https://a.com/", "\n\nSee also:\n- B two. ", "@https://b.com/", "\n\nAfter all, D. ", "@https://a.com/"), 1,
			"A. [1]\n\nAfter all, D. [1]", []string{"A."}},
		{"a lead-in with its kept items stays", msg(false, "Top:\n- A one. ", "@https://a.com/"), 1,
			"Top:\n- A one. [1]", []string{"A one."}},
		{"emoji, code points", msg(false, "🚀 Go 🇺🇸 now. ", "@https://e.com/"), 0, "🚀 Go 🇺🇸 now. [1]", []string{"🚀 Go 🇺🇸 now."}},
		{"emoji, UTF-16 units", msg(true, "🚀 Go 🇺🇸 now. ", "@https://e.com/"), 0, "🚀 Go 🇺🇸 now. [1]", []string{"🚀 Go 🇺🇸 now."}},
		{"prose links lose tracking", msg(false, "See [the page](https://f.com/a?x=1&utm_campaign=z).", ""), 0, "See [the page](https://f.com/a?x=1).", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := Parse(tc.r).Render(tc.max)
			if out.Answer != tc.answer {
				t.Errorf("answer %q, want %q", out.Answer, tc.answer)
			}
			if len(out.Citations) != len(tc.snippets) {
				t.Fatalf("%d citations, want %d: %+v", len(out.Citations), len(tc.snippets), out.Citations)
			}
			for i, c := range out.Citations {
				if c.Snippet != tc.snippets[i] || !strings.Contains(out.Answer, c.Snippet) {
					t.Errorf("citation %d snippet %q, want %q", i, c.Snippet, tc.snippets[i])
				}
			}
		})
	}
}

func TestParseOddAnswers(t *testing.T) {
	// Offsets past the text, reversed, overlapping; a non-http URL; two
	// messages; a refusal; a reasoning item between.
	r := &Response{Status: "completed", Model: "m", Output: []OutputItem{
		{Type: "message", Content: []ContentPart{{Type: "output_text", Text: "Short.", Annotations: []Annotation{
			{Type: "url_citation", StartIndex: 50, EndIndex: 90, URL: "https://a.com/"},
			{Type: "url_citation", StartIndex: 4, EndIndex: 1, URL: "https://b.com/"},
			{Type: "url_citation", StartIndex: 0, EndIndex: 3, URL: "javascript:alert(1)"},
			{Type: "file_citation", StartIndex: 0, EndIndex: 3},
		}}}},
		{Type: "reasoning"},
		{Type: "message", Content: []ContentPart{{Type: "output_text", Text: "Second message."}, {Type: "refusal", Refusal: "I can't."}}},
	}}
	res := Parse(r)
	out := res.Render(0)
	if len(out.Citations) != 2 || !strings.HasPrefix(out.Answer, "Short.") || !strings.Contains(out.Answer, "Second message.") || res.Refusal != "I can't." {
		t.Errorf("%+v / %q", out.Citations, out.Answer)
	}
}

func TestCleanURL(t *testing.T) {
	cases := []struct{ in, clean, domain string }{
		{"https://www.axios.com/a/b?utm_source=chatgpt.com", "https://www.axios.com/a/b", "axios.com"},
		{"https://X.com/p?id=7&utm_source=openai&utm_medium=ref&fbclid=1&gclid=2", "https://x.com/p?id=7", "x.com"},
		{"https://a.b/p?keep=%20x&UTM_Term=y#section", "https://a.b/p?keep=%20x#section", "a.b"},
		{"https://a.b/p#:~:text=hello", "https://a.b/p", "a.b"},
		{"https://a.b:8443/p?", "https://a.b:8443/p", "a.b"},
	}
	for _, tc := range cases {
		clean, domain, _, ok := CleanURL(tc.in)
		if !ok || clean != tc.clean || domain != tc.domain {
			t.Errorf("%s → %q %q %v", tc.in, clean, domain, ok)
		}
	}
	for _, bad := range []string{"", "ftp://a.b/", "javascript:alert(1)", "/relative", "https://user:pw@a.b/"} {
		if _, _, _, ok := CleanURL(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	_, _, k1, _ := CleanURL("http://www.a.com/p/?utm_source=x")
	_, _, k2, _ := CleanURL("https://A.com/p")
	if k1 != k2 {
		t.Errorf("keys differ: %q %q", k1, k2)
	}
}

func TestRetryPolicy(t *testing.T) {
	quota := []byte(`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`)
	rate := []byte(`{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	cases := []struct {
		status int
		h      http.Header
		body   []byte
		retry  bool
		wait   time.Duration
		told   bool
	}{
		{429, h("retry-after", "2"), rate, true, 2 * time.Second, true},
		{429, h("retry-after-ms", "150", "retry-after", "9"), rate, true, 150 * time.Millisecond, true},
		{429, h("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s", "x-ratelimit-reset-tokens", "6m0s"), rate, true, time.Second, true},
		{429, h("x-ratelimit-reset-tokens", "6m0s"), []byte(`{"error":{"type":"tokens","code":"rate_limit_exceeded","message":"x"}}`), true, 6 * time.Minute, true},
		{429, h("retry-after", "20"), quota, false, 20 * time.Second, true},
		{429, nil, []byte("<html>"), true, 0, false},
		{500, nil, nil, true, 0, false},
		{503, h("retry-after", "3"), nil, true, 3 * time.Second, true},
		{408, nil, nil, true, 0, false},
		{409, nil, nil, true, 0, false},
		{400, nil, nil, false, 0, false},
		{400, h("x-should-retry", "true"), nil, true, 0, false},
		{500, h("x-should-retry", "false"), nil, false, 0, false},
		{401, nil, nil, false, 0, false},
		{404, nil, nil, false, 0, false},
	}
	for i, tc := range cases {
		if got := retryable(tc.status, tc.h, tc.body); got != tc.retry {
			t.Errorf("case %d: retryable %v", i, got)
		}
		w, told := serverWait(tc.status, tc.h, tc.body, time.Now())
		if told != tc.told || w != tc.wait {
			t.Errorf("case %d: wait %v %v, want %v %v", i, w, told, tc.wait, tc.told)
		}
	}
}
