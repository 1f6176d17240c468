package feed

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

var fixedNow = time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

func fakeFeed(n int, cdata bool) []byte {
	return fake.RenderSearch("oil", fake.Stories("oil", n, fixedNow),
		fake.RenderOptions{HL: "en-US", GL: "US", CEID: "US:en", CDATA: cdata, BuildTime: fixedNow})
}

func TestParseFakeFeed(t *testing.T) {
	for _, cdata := range []bool{false, true} {
		f, err := Parse(fakeFeed(100, cdata), "US:en")
		if err != nil {
			t.Fatal(err)
		}
		// 100 stories, two duplicates (by title, by link) dropped
		if len(f.Items) != 98 {
			t.Fatalf("cdata=%v: %d items, want 98", cdata, len(f.Items))
		}
		for i, it := range f.Items {
			if strings.HasSuffix(it.Title, " - "+it.Publisher) || it.Publisher == "" || it.PublisherDomain == "" ||
				!strings.HasPrefix(it.URL, "https://news.google.com/rss/articles/CBMi") || strings.ContainsAny(it.Snippet, "<>&") {
				t.Fatalf("item %d: %+v", i, it)
			}
			if _, err := time.Parse(time.RFC3339, it.Published); err != nil {
				t.Fatalf("item %d published %q", i, it.Published)
			}
		}
		if got := f.Items[6].Title; got != "Live - oil: update 7" { // " - " inside a headline is kept
			t.Errorf("headline with ' - ': %q", got)
		}
		if !strings.Contains(f.Items[0].Snippet, "; Related coverage 2 of story 1 (") {
			t.Errorf("cluster snippet: %q", f.Items[0].Snippet)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	full := string(fakeFeed(5, false))
	cases := []struct {
		name      string
		body      string
		code      envelope.Code
		throttled bool
		msg       string
	}{
		{"sorry page", `<!DOCTYPE html><html><body><b>Sorry...</b> unusual traffic</body></html>`, envelope.RateLimited, true, "throttling"},
		{"other html", `<html><body>consent</body></html>`, envelope.UpstreamError, false, "not an RSS feed"},
		{"truncated", full[:len(full)/2], envelope.UpstreamError, false, "truncated"}, // retryable: try again shortly
		{"json", `{"error":"x"}`, envelope.UpstreamError, false, "malformed"},
		{"empty", ``, envelope.UpstreamError, false, "malformed"},
		{"unsupported", `<rss version="2.0"><channel><title>Google News</title><item><title>This feed is not available.</title><link>https://news.google.com/</link></item></channel></rss>`,
			envelope.UpstreamError, false, "not available"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body), "GB:en")
			var e *envelope.Error
			if !errors.As(err, &e) || e.Code != tc.code || Throttled(err) != tc.throttled || !strings.Contains(e.Message, tc.msg) {
				t.Fatalf("err %v", err)
			}
			if tc.name == "unsupported" && !strings.Contains(e.Message, "GB:en") {
				t.Fatalf("does not name the edition: %s", e.Message)
			}
		})
	}
}

func TestParseEmptyFeed(t *testing.T) {
	f, err := Parse(fakeFeed(0, false), "US:en")
	if err != nil || len(f.Items) != 0 || f.Items == nil {
		t.Fatalf("%+v %v", f, err)
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add(fakeFeed(3, false))
	f.Add(fakeFeed(2, true))
	f.Add([]byte(`<rss><channel><item><title> - </title><description>&lt;ol&gt;&lt;li&gt;</description><source url="::">x</source></item></channel></rss>`))
	f.Add([]byte(`<!DOCTYPE html>Sorry`))
	f.Fuzz(func(t *testing.T, body []byte) {
		feed, err := Parse(body, "US:en")
		if err != nil {
			var e *envelope.Error
			if !errors.As(err, &e) || e.Message == "" {
				t.Fatalf("non-envelope error %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, it := range feed.Items {
			if len([]rune(it.Snippet)) > MaxSnippet {
				t.Fatalf("snippet too long")
			}
			if it.Published != "" {
				if _, err := time.Parse(time.RFC3339, it.Published); err != nil {
					t.Fatalf("published %q", it.Published)
				}
			}
			k := linkKey(it)
			if k != "" && seen[k] {
				t.Fatalf("duplicate link %q", k)
			}
			seen[k] = true
		}
	})
}

func BenchmarkNormalize100(b *testing.B) {
	body := fakeFeed(100, false)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body, "US:en"); err != nil {
			b.Fatal(err)
		}
	}
}

// Duplicates: the same link (article id, ?oc=5 or not) is one story; the same
// headline from the same publisher under two links is one story; the same
// headline from a second publisher (wire copy) is a second story.
func TestParseDedupe(t *testing.T) {
	at := fixedNow
	stories := []fake.Story{
		{ID: fake.ArticleID("a"), Headline: "Oil jumps 5% on supply cut", Publisher: "Reuters", Home: "https://www.reuters.com", Published: at},
		{ID: fake.ArticleID("b"), Headline: "Oil jumps 5% on supply cut", Publisher: "Yahoo Finance", Home: "https://finance.yahoo.com", Published: at},
		{ID: fake.ArticleID("c"), Headline: "Oil Jumps 5% on Supply Cut!", Publisher: "Reuters", Home: "https://www.reuters.com", Published: at},
		{ID: fake.ArticleID("a"), Headline: "Another headline", Publisher: "BBC", Home: "https://www.bbc.com", Published: at},
		{ID: fake.ArticleID("d"), Headline: "Gas steady", Publisher: "BBC", Home: "https://www.bbc.com", Published: at},
	}
	body := fake.RenderSearch("oil", stories, fake.RenderOptions{HL: "en-US", GL: "US", CEID: "US:en", BuildTime: at})
	f, err := Parse(body, "US:en")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range f.Items {
		got = append(got, it.Title+" ("+it.Publisher+")")
	}
	want := []string{"Oil jumps 5% on supply cut (Reuters)", "Oil jumps 5% on supply cut (Yahoo Finance)", "Gas steady (BBC)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("items %q\nwant  %q", got, want)
	}
}
