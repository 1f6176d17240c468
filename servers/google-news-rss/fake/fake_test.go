package fake

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestFakeShapesAndFaults(t *testing.T) {
	now := time.Date(2026, 9, 25, 18, 10, 28, 0, time.UTC)
	s := New(Options{Items: 500, Now: func() time.Time { return now }})
	base, stop := s.Start()
	defer stop()

	resp, body := get(t, base+"/rss/search?q=%22a+b%22+OR+c&hl=en-US&gl=US&ceid=US:en")
	if resp.StatusCode != 200 || strings.Count(body, "<item>") != MaxItems ||
		!strings.Contains(body, `<title>&#34;&#34;a b&#34; OR c&#34; - Google News</title>`) ||
		!strings.Contains(body, `<source url="https://www.reuters.com">Reuters</source>`) ||
		!strings.Contains(body, "<pubDate>Fri, 25 Sep 2026 18:07:28 GMT</pubDate>") {
		t.Fatalf("feed: %d %.600s", resp.StatusCode, body)
	}
	if got := s.Requests()[0]; got != (Request{Q: `"a b" OR c`, HL: "en-US", GL: "US", CEID: "US:en"}) {
		t.Fatalf("recorded %+v", got)
	}

	resp, body = get(t, base+"/rss/search?q=oil&hl=en-AE&gl=AE&ceid=AE:en")
	if resp.Request.URL.Path != "/rss/unsupported" || !strings.Contains(body, "This feed is not available.") {
		t.Fatalf("AE:en: %s %s", resp.Request.URL, body)
	}

	resp2, err := http.Post(base+"/_fake/faults", "application/json", strings.NewReader(`{"status":429,"times":1}`))
	if err != nil || resp2.StatusCode != 200 {
		t.Fatal(err, resp2)
	}
	resp2.Body.Close()
	resp, body = get(t, base+"/rss/search?q=oil&hl=en-US&gl=US&ceid=US:en")
	if resp.StatusCode != 429 || !strings.Contains(body, "Sorry") {
		t.Fatalf("429 fault: %d", resp.StatusCode)
	}
	if resp, _ = get(t, base+"/rss/search?q=oil&hl=en-US&gl=US&ceid=US:en"); resp.StatusCode != 200 {
		t.Fatal("times:1 did not clear the fault")
	}
	s.SetFaults(Faults{Truncated: true})
	if _, body = get(t, base+"/rss/search?q=oil&hl=en-US&gl=US&ceid=US:en"); strings.HasSuffix(body, "</rss>") {
		t.Fatal("not truncated")
	}
}

// The fake throttles the real way: a 302 from the news host to /sorry/index
// on another host, with continue naming the search URL, and a 429 there;
// the consent redirect goes to consent.google.com; GETs are counted per
// minute, and past ThrottleAbove a minute the fake throttles on its own.
func TestFakeThrottleAndConsentRedirects(t *testing.T) {
	now := time.Date(2026, 9, 25, 18, 10, 28, 0, time.UTC)
	s := New(Options{Now: func() time.Time { return now }, ThrottleAbove: 3})
	base, stop := s.Start()
	defer stop()
	search := base + "/rss/search?q=oil&hl=en-US&gl=US&ceid=US:en"
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	s.SetFaults(Faults{SorryRedirect: true, Times: 1})
	resp, err := noFollow.Get(search)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/sorry/index" || loc.Host == resp.Request.URL.Host || loc.Query().Get("continue") != search {
		t.Fatalf("throttle redirect: %d %s", resp.StatusCode, loc)
	}
	resp, body := get(t, loc.String()) // what a client that follows it gets
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "Sorry") || s.SorryHits() != 1 {
		t.Fatalf("sorry host: %d %s", resp.StatusCode, body)
	}

	s.SetFaults(Faults{Consent: true, RedirectStatus: http.StatusSeeOther, Times: 1})
	resp, err = noFollow.Get(search)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "https://consent.google.com/ml?continue=") {
		t.Fatalf("consent redirect: %d %s", resp.StatusCode, loc)
	}

	// two GETs so far this minute; the third passes, the fourth is throttled
	if resp, _ = get(t, search); resp.StatusCode != 200 {
		t.Fatalf("third GET: %d", resp.StatusCode)
	}
	resp, err = noFollow.Get(search)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "/sorry/index") {
		t.Fatalf("past ThrottleAbove: %d", resp.StatusCode)
	}
	if got := s.GetsPerMinute(); len(got) != 1 || got[now.Truncate(time.Minute)] != 4 || s.MaxGetsPerMinute() != 4 {
		t.Fatalf("per minute %v", got)
	}
}
