package feed

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// TestDecodeArticleRoundTrip: an item's Google link decodes through the
// fake's article page and batchexecute (built from the public decoders'
// captures) to the publisher URL, in two requests, both from the budget.
func TestDecodeArticleRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	f := fake.New(fake.Options{Now: func() time.Time { return now }})
	base, stop := f.Start()
	defer stop()
	budget := NewBudget(base, 60, 3)
	c := New(Config{BaseURL: base, Timeout: 2 * time.Second, Budget: budget})
	e, _ := query.ResolveEdition("US:en")
	fd, err := c.Fetch(context.Background(), "dubai ports", e)
	if err != nil {
		t.Fatal(err)
	}
	it := fd.Items[0]
	id, ok := ArticleID(it.URL, base)
	if !ok || id != it.ArticleID {
		t.Fatalf("article id of %s: %q %v", it.URL, id, ok)
	}
	got, err := c.DecodeArticle(context.Background(), id, e)
	if err != nil {
		t.Fatal(err)
	}
	if want := fake.PublisherURL("https://www.reuters.com", id); got != want {
		t.Errorf("decoded %s, want %s", got, want)
	}
	if pages, batch := f.DecodeRequests(); pages != 1 || batch != 1 {
		t.Errorf("%d article pages, %d batchexecute posts; want 1 each", pages, batch)
	}
	// The budget (burst 3: the feed and both decode requests) is spent: the
	// next decode is refused before anything is sent.
	_, err = c.DecodeArticle(context.Background(), id, e)
	var env *envelope.Error
	if !errors.As(err, &env) || env.Code != envelope.RateLimited {
		t.Errorf("over budget: %v", err)
	}
	if pages, _ := f.DecodeRequests(); pages != 1 {
		t.Errorf("a refused decode reached Google (%d pages)", pages)
	}
	// An id Google does not know: its page is a 404 (not_found), nothing posted.
	c2 := New(Config{BaseURL: base, Timeout: 2 * time.Second})
	if _, err := c2.DecodeArticle(context.Background(), "CBMiUnknown", e); !errors.As(err, &env) || env.Code != envelope.NotFound {
		t.Errorf("unknown id: %v", err)
	}
	// Throttled while decoding: rate_limited with a retry-after, the host held.
	f.SetFaults(fake.Faults{SorryRedirect: true, Times: 1})
	if _, err := c2.DecodeArticle(context.Background(), id, e); !Throttled(err) {
		t.Errorf("throttled decode: %v", err)
	}
}

func TestArticleID(t *testing.T) {
	for link, want := range map[string]string{
		"https://news.google.com/rss/articles/CBMiABC?oc=5":                   "CBMiABC",
		"https://news.google.com/articles/CBMiXYZ":                            "CBMiXYZ",
		"https://news.google.com/read/CBMiABC123?hl=en-US&gl=US&ceid=US%3Aen": "CBMiABC123",
		"http://127.0.0.1:9/rss/articles/CBMiLocal":                           "CBMiLocal",
		"https://example.com/articles/CBMiABC":                                "",
		"https://news.google.com/rss/search?q=x":                              "",
		"https://www.reuters.com/world/middle-east/some-story-2026-11-24/":    "",
		"not a url": "",
	} {
		id, ok := ArticleID(link, "http://127.0.0.1:9")
		if id != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", link, id, ok, want)
		}
	}
}

// TestParseBatchExecute replays answer shapes of the public decoders'
// tests (SSujitX/google-news-url-decoder tests/test_parse.py) and the
// failures the decoders report.
func TestParseBatchExecute(t *testing.T) {
	cases := []struct{ body, url, why string }{
		{")]}'\n\n" + `[["wrb.fr","Fbv4je","[\"garturlres\",\"https://b.example/2\"]",null,null,null,"2"],["di",1]]`, "https://b.example/2", ""},
		{")]}'\n\n" + `[["wrb.fr","Fbv4je","[\"garturlres\",\"https://a.example/1\",1]",null,null,null,"generic"],["di",38],["af.httprm",37,"-1",9]]`, "https://a.example/1", ""},
		{")]}'\n\n" + `[["wrb.fr","Fbv4je",null,null,null,[3],"generic"],["di",10]]`, "", "no payload"},
		{")]}'\n\n" + `[["er",null,null,null,null,400]]`, "", "refused"},
		{")]}'\n\n" + `[["wrb.fr","Fbv4je","[\"garturlres\",\"javascript:alert(1)\"]"]]`, "", "not an http(s) address"},
		{")]}'\n\n" + `[["di",1]]`, "", "no Fbv4je result row"},
		{"<html>Sorry</html>", "", "not the JSON"},
		{")]}'\n\n123\n" + `[["wrb.fr","Fbv4je","[\"garturlres\",\"https://c.example/3\"]"]]` + "\n25\n[[\"e\",4]]", "https://c.example/3", ""},
	}
	for _, c := range cases {
		u, why := ParseBatchExecute([]byte(c.body))
		if u != c.url || !strings.Contains(why, c.why) || (c.why == "" && why != "") {
			t.Errorf("%q: %q %q", c.body, u, why)
		}
	}
	if sig, ts, ok := decodingParams([]byte(`<html><c-wiz><div jscontroller="ctrl" data-n-a-sg="SIG" data-n-a-ts="1700000000"></div></c-wiz></html>`)); !ok || sig != "SIG" || ts != "1700000000" {
		t.Errorf("params %q %q %v", sig, ts, ok)
	}
	if _, _, ok := decodingParams([]byte("<html><body>nope</body></html>")); ok {
		t.Error("params found in a page without them")
	}
}

// FuzzParseBatchExecute: any answer gives a URL or a reason, never both,
// never a panic; a URL is http(s).
func FuzzParseBatchExecute(f *testing.F) {
	f.Add([]byte(")]}'\n\n" + `[["wrb.fr","Fbv4je","[\"garturlres\",\"https://b.example/2\"]",null,null,null,"2"]]`))
	f.Add([]byte(`[["wrb.fr","Fbv4je",7]]`))
	f.Add([]byte(`<div data-n-a-sg="a" data-n-a-ts="1">`))
	f.Fuzz(func(t *testing.T, body []byte) {
		u, why := ParseBatchExecute(body)
		if (u == "") == (why == "") {
			t.Fatalf("url %q and reason %q", u, why)
		}
		if u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			t.Fatalf("url %q", u)
		}
		_, _, _ = decodingParams(body)
	})
}
