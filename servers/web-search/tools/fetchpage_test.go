package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/pagereader"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// pageSite is a loopback site with one article, a long page and a
// robots.txt that disallows /private/.
func pageSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html lang="en"><head><title>Port traffic rises | Harbour Times</title><meta name="author" content="Sara Lin">
<meta property="article:published_time" content="2026-12-01T08:00:00Z"></head><body><article><h1>Port traffic rises</h1>
<p>Container traffic through Jebel Ali rose 7 percent in November from a year earlier, the operator said on Monday, as new shipping lines added calls.</p>
<p>The operator expects volumes to keep growing next year. <a href="/ports/jebel-ali">Jebel Ali</a> handled 1.4 million containers in the month, a record.</p>
</article></body></html>`)
	})
	mux.HandleFunc("/long.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("Line of a long plain text file.\n", 1000))
	})
	mux.HandleFunc("/other.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "other")
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func testPages(limit int, loopback bool) *Pages {
	return NewPages(PagesOptions{Limit: limit, Window: time.Minute, Clock: clock.NewFake(time.Date(2026, 12, 6, 5, 30, 0, 0, time.UTC)),
		Reader: pagereader.Config{AllowLoopback: loopback, PerHostRate: 1000}})
}

func TestFetchPage(t *testing.T) {
	s := pageSite(t)
	p := testPages(30, true)
	ctx := serve.WithUser(context.Background(), "u1")
	out, err := p.fetch(ctx, FetchIn{URL: s.URL + "/article"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Complete || !strings.HasPrefix(out.Page.Title, "Port traffic rises") || out.Page.Byline != "Sara Lin" || out.Page.Published != "2026-12-01T08:00:00Z" ||
		!strings.Contains(out.Text, "rose 7 percent") || len(out.Page.Links) != 1 || out.Page.Links[0].URL != s.URL+"/ports/jebel-ali" ||
		out.Page.FetchedAt != "2026-12-06T05:30:00Z" {
		t.Errorf("%+v", out)
	}
	b, _ := json.Marshal(out)
	for _, want := range []string{`"complete":true`, `"third_party":["text","page.title","page.byline","page.site_name","page.links[].text"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("result lacks %s: %s", want, b)
		}
	}
	// A long page in windows: the cut names start=N; the next call is from
	// the cache and costs nothing.
	first, err := p.fetch(ctx, FetchIn{URL: s.URL + "/long.txt", MaxChars: 1000})
	if err != nil || first.Complete || first.Incomplete.Reason != envelope.Truncated || !strings.Contains(first.Incomplete.Next, "fetch_page again with start=") {
		t.Fatalf("%+v %v", first.Coverage, err)
	}
	next := first.Page.Start + len([]rune(first.Text))
	second, err := p.fetch(ctx, FetchIn{URL: s.URL + "/long.txt", MaxChars: 1000, Start: next})
	if err != nil || !second.Page.Cached || second.Page.Start != next || !strings.HasPrefix(second.Text, "Line of") {
		t.Errorf("%+v %v", second, err)
	}
}

func TestFetchPageErrors(t *testing.T) {
	s := pageSite(t)
	ctx := serve.WithUser(context.Background(), "u1")
	p := testPages(2, true)
	for _, path := range []string{"/article", "/long.txt"} {
		if _, err := p.fetch(ctx, FetchIn{URL: s.URL + path}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := p.fetch(ctx, FetchIn{URL: s.URL + "/other.txt"})
	if e, ok := err.(*envelope.Error); !ok || e.Code != envelope.RateLimited || e.RetryAfter <= 0 || !strings.Contains(e.Message, "2 page reads per 1m0s") {
		t.Errorf("third read: %v", err)
	}
	if _, err := p.fetch(ctx, FetchIn{URL: s.URL + "/article"}); err != nil {
		t.Errorf("a cached page must stay free: %v", err)
	}
	if _, err := p.fetch(serve.WithUser(context.Background(), "u2"), FetchIn{URL: s.URL + "/other.txt"}); err != nil {
		t.Errorf("another user has a limit of their own: %v", err)
	}

	cases := []struct {
		in   FetchIn
		code envelope.Code
		has  string
	}{
		{FetchIn{URL: s.URL + "/private/x"}, envelope.PermissionDenied, "robots.txt disallows"},
		{FetchIn{URL: "file:///etc/passwd"}, envelope.InvalidArgument, "absolute http or https"},
		{FetchIn{URL: "ftp://example.com/x"}, envelope.InvalidArgument, "only http and https"},
		{FetchIn{URL: s.URL, MaxChars: 10}, envelope.InvalidArgument, "maxChars must be"},
		{FetchIn{URL: s.URL, Start: -1}, envelope.InvalidArgument, "start must be"},
	}
	open := testPages(30, true)
	for _, c := range cases {
		_, err := open.fetch(ctx, c.in)
		if e, ok := err.(*envelope.Error); !ok || e.Code != c.code || !strings.Contains(e.Message, c.has) {
			t.Errorf("%+v: %v", c.in, err)
		}
	}
	// Without MCPFLEET_FETCH_ALLOW_LOOPBACK the same site is refused, and
	// the refusal spends nothing.
	closed := testPages(1, false)
	for range 2 {
		_, err := closed.fetch(ctx, FetchIn{URL: s.URL + "/article"})
		if e, ok := err.(*envelope.Error); !ok || e.Code != envelope.PermissionDenied || !strings.Contains(e.Message, "loopback") {
			t.Errorf("loopback: %v", err)
		}
	}
}
