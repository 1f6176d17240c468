package feed

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// Google redirects editions it does not serve (AE:en, §0.1) to
// /rss/unsupported: an error naming the edition, not news.
func TestFetchUnsupportedRedirect(t *testing.T) {
	f := fake.New(fake.Options{Now: func() time.Time { return fixedNow }})
	base, stop := f.Start()
	defer stop()
	c := New(Config{BaseURL: base, Timeout: 2 * time.Second})
	_, err := c.Fetch(context.Background(), "oil", query.Edition{HL: "en-AE", GL: "AE", CEID: "AE:en"})
	e, ok := err.(*envelope.Error)
	if !ok || e.Code != envelope.UpstreamError || !strings.Contains(e.Message, "AE:en") || !strings.Contains(e.Message, "not available") {
		t.Fatalf("err %v", err)
	}
	// the redirect is recognized by its path even if the page changes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rss/search" {
			http.Redirect(w, r, "/rss/unsupported?x=1", http.StatusFound)
			return
		}
		_, _ = w.Write(fake.RenderSearch("x", fake.Stories("x", 2, fixedNow), fake.RenderOptions{HL: "en-US", GL: "US", CEID: "US:en", BuildTime: fixedNow}))
	}))
	defer srv.Close()
	_, err = New(Config{BaseURL: srv.URL}).Fetch(context.Background(), "oil", query.Editions[1])
	if e, ok := err.(*envelope.Error); !ok || !strings.Contains(e.Message, "GB:en") {
		t.Fatalf("err %v", err)
	}
}

func TestFetchRetries(t *testing.T) {
	cases := []struct {
		name     string
		f        fake.Faults
		requests int
		ok       bool
	}{
		{"500 once then ok", fake.Faults{Status: 500, Times: 1}, 2, true},
		{"502 always", fake.Faults{Status: 502}, 2, false},
		{"503 is throttling, never retried", fake.Faults{Status: 503}, 1, false},
		{"429 never retried", fake.Faults{Status: 429, RetryAfter: 1}, 1, false},
		{"404 not retried", fake.Faults{Status: 404}, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fake.New(fake.Options{Now: func() time.Time { return fixedNow }})
			f.SetFaults(tc.f)
			base, stop := f.Start()
			defer stop()
			_, err := New(Config{BaseURL: base, RetryWait: 5 * time.Millisecond}).Fetch(context.Background(), "oil", query.Editions[0])
			if (err == nil) != tc.ok || f.Count() != tc.requests {
				t.Fatalf("err %v, %d requests", err, f.Count())
			}
		})
	}
}

func TestFetchBodyCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<rss><channel>` + strings.Repeat(" ", MaxBodyBytes+10)))
	}))
	defer srv.Close()
	_, err := New(Config{BaseURL: srv.URL}).Fetch(context.Background(), "oil", query.Editions[0])
	if e, ok := err.(*envelope.Error); !ok || !strings.Contains(e.Message, "larger than") {
		t.Fatalf("err %v", err)
	}
}

func TestFeedURL(t *testing.T) {
	got := FeedURL("https://news.google.com", `"supply chain" boeing OR airbus`, query.Editions[0])
	want := "https://news.google.com/rss/search?q=%22supply+chain%22+boeing+OR+airbus&hl=en-US&gl=US&ceid=US%3Aen"
	if got != want {
		t.Fatalf("%s\n%s", got, want)
	}
	if p := PublicBase("http://u:secret@h:1/x?k=v"); p != "http://h:1/x" {
		t.Fatal(p)
	}
}
