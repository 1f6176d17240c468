package feed

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// Google redirects editions it does not serve (AE:en, assumed) to
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

// What a redirect from news.google.com to another host means, beyond the
// recorded 302s to www.google.com/sorry/ and consent.google.com (contract
// cases): a 303 with Retry-After and other hosts' /sorry/ are throttling
// too, anything else stays refused. None is followed (the targets are real
// hosts; nothing leaves loopback).
func TestFetchCrossHostRedirects(t *testing.T) {
	cont := url.QueryEscape("https://news.google.com/rss/search?q=oil&hl=en-US&gl=US&ceid=US:en")
	cases := []struct {
		name, location, retryAfter string
		status                     int
		code                       envelope.Code
		throttled, retryable       bool
		msg                        string
		after                      time.Duration
	}{
		{"sorry 303 with Retry-After", "https://www.google.com/sorry/index?continue=" + cont, "90", 303, envelope.RateLimited, true, true, "303 redirect", 90 * time.Second},
		{"sorry on ipv4.google.com", "https://ipv4.google.com/sorry/index?continue=" + cont, "", 302, envelope.RateLimited, true, true, "ipv4.google.com/sorry/", ThrottleBackoff(1)},
		{"another host", "https://example.com/rss", "", 302, envelope.UpstreamError, false, false, "redirect to another host refused", 0},
		{"a stand-in for www.google.com", "http://127.0.0.1:1/sorry/index", "", 302, envelope.RateLimited, true, true, "127.0.0.1/sorry/", ThrottleBackoff(1)},
		{"google, not /sorry", "https://www.google.com/search?q=oil", "", 302, envelope.UpstreamError, false, false, "redirect to another host refused", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hits := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits++
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.Header().Set("Location", tc.location)
				w.WriteHeader(tc.status)
			}))
			defer srv.Close()
			_, err := New(Config{BaseURL: srv.URL, RetryWait: time.Millisecond}).Fetch(context.Background(), "oil", query.Editions[0])
			var e *envelope.Error
			if !errors.As(err, &e) || e.Code != tc.code || Throttled(err) != tc.throttled || e.Retryable != tc.retryable ||
				!strings.Contains(e.Message, tc.msg) || e.RetryAfter != tc.after || hits != 1 {
				t.Fatalf("err %v (retry-after %v), %d requests", err, e.RetryAfter, hits)
			}
		})
	}
}

// An attempt that runs out of its half of the deadline is retried once; a
// budget refusal is never retried and sends nothing.
func TestFetchTimeoutRetriedBudgetNot(t *testing.T) {
	f := fake.New(fake.Options{Now: func() time.Time { return fixedNow }})
	f.SetFaults(fake.Faults{SlowMS: 400, Times: 1})
	base, stop := f.Start()
	defer stop()
	if _, err := New(Config{BaseURL: base, Timeout: 600 * time.Millisecond, RetryWait: time.Millisecond}).Fetch(context.Background(), "oil", query.Editions[0]); err != nil || f.Count() != 2 {
		t.Fatalf("slow first attempt: %v, %d requests", err, f.Count())
	}
	b := NewBudget(base, 1, 1)
	c := New(Config{BaseURL: base, Budget: b})
	if _, err := c.Fetch(context.Background(), "oil", query.Editions[0]); err != nil {
		t.Fatal(err)
	}
	_, err := c.Fetch(context.Background(), "gas", query.Editions[0])
	if !OverBudget(err) || f.Count() != 3 || !strings.Contains(err.Error(), "1 requests/min, bursts of 1") {
		t.Fatalf("over budget: %v, %d requests", err, f.Count())
	}
	if e := err.(*envelope.Error); e.Code != envelope.RateLimited || e.RetryAfter <= 0 {
		t.Fatalf("refusal %+v", e)
	}
}

// A redirect's Location and Retry-After come from outside: any of them is
// classified without a panic, and a throttle's retry-after is never negative.
func FuzzClassifyRedirect(f *testing.F) {
	f.Add("https://www.google.com/sorry/index?continue=https://news.google.com/rss/search%3Fq%3Doil", "120", 302)
	f.Add("https://consent.google.com/ml?continue=x&gl=DE", "", 303)
	f.Add("https://example.com/", "Fri, 27 Nov 2026 20:00:00 GMT", 301)
	f.Fuzz(func(t *testing.T, location, retryAfter string, status int) {
		to, err := url.Parse(location)
		if err != nil {
			return
		}
		req := httptest.NewRequest(http.MethodGet, "http://news.google.com/rss/search", nil)
		resp := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}, Request: req}
		e := classifyRedirect(resp, to)
		if e != nil && (e.Message == "" || e.RetryAfter < 0) {
			t.Fatalf("%q: %+v", location, e)
		}
	})
}

// Feeds are parsed at most GOMAXPROCS at once; a call whose deadline passes
// while every parse slot is taken ends with a retryable timeout, and a free
// slot parses.
func TestParseSlots(t *testing.T) {
	c := New(Config{BaseURL: "http://127.0.0.1:1"})
	body := fakeFeed(3, false)
	if cap(c.parses) < 1 {
		t.Fatalf("%d parse slots", cap(c.parses))
	}
	for range cap(c.parses) {
		c.parses <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := c.parse(ctx, body, "US:en")
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.Timeout || !e.Retryable {
		t.Fatalf("all slots taken: %v", err)
	}
	<-c.parses
	if f, err := c.parse(context.Background(), body, "US:en"); err != nil || len(f.Items) != 3 {
		t.Fatalf("a free slot: %d items, %v", len(f.Items), err)
	}
	if len(c.parses) != cap(c.parses)-1 {
		t.Fatalf("the slot was not given back: %d of %d taken", len(c.parses), cap(c.parses))
	}
}
