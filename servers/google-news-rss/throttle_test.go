package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

type previewed struct {
	built
	FetchedAt  string `json:"fetched_at"`
	ServedFrom string `json:"served_from"`
	ItemCount  int    `json:"item_count"`
	Items      []item `json:"items"`
}

func (e *env) preview(t *testing.T, args map[string]any) previewed {
	t.Helper()
	res := e.call(t, "preview_search_feed", args)
	if res.IsError {
		t.Fatalf("preview_search_feed %v: %s", args, servetest.Text(res))
	}
	return servetest.Decode[previewed](t, res)
}

// Throttling comes as a 302 from news.google.com to www.google.com/sorry
// (another host, which answers 429): rate_limited with a retry-after —
// Google's Retry-After when it sends one, else the backoff — never followed,
// never a configuration hint.
func TestThrottleRedirectNeverFollowed(t *testing.T) {
	e := start(t, setup{})
	for i, tc := range []struct {
		name  string
		f     fake.Faults
		after float64
	}{
		{"no Retry-After: backoff", fake.Faults{SorryRedirect: true}, 300},
		{"again: backoff doubles", fake.Faults{SorryRedirect: true, RedirectStatus: 303}, 600},
		{"Retry-After sent: Google's", fake.Faults{SorryRedirect: true, RetryAfter: 120}, 120},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.SetFaults(tc.f)
			defer e.fake.ClearFaults()
			e.clock.Advance(2 * time.Hour) // past the previous case's hold
			res := e.call(t, "preview_search_feed", map[string]any{"q": fmt.Sprintf("sorry %d", i)})
			b := wantError(t, res, envelope.RateLimited, "/sorry/")
			if !b.Retryable || b.RetryAfterS == nil || *b.RetryAfterS != tc.after {
				t.Errorf("retryable %v, retry_after %v, want %v", b.Retryable, b.RetryAfterS, tc.after)
			}
			if strings.Contains(b.Message, "GOOGLE_NEWS_BASE_URL") || strings.Contains(b.Message, "base URL") {
				t.Errorf("a rate limit read as a configuration error: %s", b.Message)
			}
		})
	}
	if n := e.fake.SorryHits(); n != 0 {
		t.Fatalf("the throttle redirect was followed %d times", n)
	}
	// a success resets the backoff
	e.clock.Advance(2 * time.Hour)
	if p := e.preview(t, map[string]any{"q": "healthy again"}); p.ServedFrom != "google" {
		t.Fatalf("%+v", p)
	}
	e.fake.SetFaults(fake.Faults{SorryRedirect: true})
	b := wantError(t, e.call(t, "preview_search_feed", map[string]any{"q": "sorry again"}), envelope.RateLimited, "/sorry/")
	if b.RetryAfterS == nil || *b.RetryAfterS != 300 {
		t.Fatalf("backoff not reset: %v", b.RetryAfterS)
	}
}

// After Google throttles, nothing is sent to it until its Retry-After (or the
// backoff) has passed: previews and fetches of other queries are refused
// with the remaining wait, on every replica sharing the state.
func TestThrottleHoldsTheHost(t *testing.T) {
	srv := redistest.StartServer(t)
	url := "redis://" + srv.Addr() + "/0"
	a := start(t, setup{redisURL: url})
	b := start(t, setup{redisURL: url, fake: a.fake, clock: a.clock, base: a.base})
	a.fake.SetFaults(fake.Faults{SorryRedirect: true, RetryAfter: 120, Times: 1})
	wantError(t, a.call(t, "preview_search_feed", map[string]any{"q": "first"}), envelope.RateLimited, "/sorry/")
	a.clock.Advance(30 * time.Second)
	for _, e := range []*env{a, b} {
		res := e.call(t, "preview_search_feed", map[string]any{"q": "another query"})
		body := wantError(t, res, envelope.RateLimited, "Google throttled this server")
		if body.RetryAfterS == nil || *body.RetryAfterS != 90 {
			t.Fatalf("retry_after %v, want 90", body.RetryAfterS)
		}
	}
	k := b.build(t, map[string]any{"terms": []string{"held"}}).QueryKey
	wantError(t, b.call(t, "fetch_search_feed", map[string]any{"query_key": k}), envelope.RateLimited, "Google throttled this server")
	if n := a.fake.Count(); n != 1 {
		t.Fatalf("%d GETs while Google's hold lasts", n)
	}
	a.clock.Advance(91 * time.Second)
	if r := b.fetch(t, k); r.Status != "fresh" || a.fake.Count() != 2 {
		t.Fatalf("after the hold: %+v, %d GETs", r.Status, a.fake.Count())
	}
}

// A consent redirect names consent and the region; fetch answers it as an
// error without spending the window.
func TestConsentRedirect(t *testing.T) {
	e := start(t, setup{})
	e.fake.SetFaults(fake.Faults{Consent: true})
	b := wantError(t, e.call(t, "preview_search_feed", map[string]any{"q": "oil"}), envelope.UpstreamError, "consent.google.com")
	if b.Retryable || !strings.Contains(b.Message, "EU/EEA/UK") {
		t.Fatalf("%+v", b)
	}
	k := e.build(t, map[string]any{"terms": []string{"gas"}}).QueryKey
	wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": k}), envelope.UpstreamError, "region")
	e.fake.ClearFaults()
	if r := e.fetch(t, k); r.Status != "fresh" {
		t.Fatalf("the consent error spent the window: %+v", r)
	}
}

// Only throttling defers a scheduled feed. A 5xx or a timeout is retried
// once and then answered as a retryable error; so are a bad body and an
// unsupported edition: none of them spends the window, and the next call in
// the same window polls.
func TestFetchTransientKeepsWindow(t *testing.T) {
	cases := []struct {
		name      string
		f         fake.Faults
		code      envelope.Code
		retryable bool
		requests  int
	}{
		{"500 twice", fake.Faults{Status: 500}, envelope.UpstreamError, true, 2},
		{"502 twice", fake.Faults{Status: 502}, envelope.UpstreamUnavailable, true, 2},
		{"slow twice", fake.Faults{SlowMS: 1500}, envelope.Timeout, true, 2},
		{"truncated", fake.Faults{Truncated: true}, envelope.UpstreamError, true, 1},
		{"non-RSS", fake.Faults{NonRSS: true}, envelope.UpstreamError, false, 1},
		{"unsupported", fake.Faults{Unsupported: true}, envelope.UpstreamError, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, setup{timeout: "500ms"})
			k := e.build(t, map[string]any{"terms": []string{"grain"}}).QueryKey
			e.fake.SetFaults(tc.f)
			b := wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": k}), tc.code, "")
			if b.Retryable != tc.retryable {
				t.Errorf("retryable %v", b.Retryable)
			}
			if n := e.fake.Count(); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			e.fake.ClearFaults()
			if r := e.fetch(t, k); r.Status != "fresh" || r.ItemCount != 28 || e.fake.Count() != tc.requests+1 {
				t.Fatalf("same window after %s: %+v, %d requests", tc.name, r.Status, e.fake.Count())
			}
		})
	}
	// one 500, then the retry succeeds: fresh
	e := start(t, setup{})
	k := e.build(t, map[string]any{"terms": []string{"corn"}}).QueryKey
	e.fake.SetFaults(fake.Faults{Status: 500, Times: 1})
	if r := e.fetch(t, k); r.Status != "fresh" || e.fake.Count() != 2 {
		t.Fatalf("%+v, %d requests", r.Status, e.fake.Count())
	}
}

// One request budget for the Google News host: 40 distinct previews in one
// process reach Google at most the burst (10) in a minute, the rest are
// rate_limited with a retry-after; fetch draws on the same budget, and a
// budget refusal does not spend its window.
func TestRequestBudget(t *testing.T) {
	e := start(t, setup{budget: true})
	ok, refused := 0, 0
	for i := range 40 {
		res := e.call(t, "preview_search_feed", map[string]any{"q": fmt.Sprintf("topic%d", i)})
		if !res.IsError {
			ok++
			continue
		}
		b := wantError(t, res, envelope.RateLimited, "request budget")
		if !b.Retryable || b.RetryAfterS == nil || *b.RetryAfterS <= 0 || *b.RetryAfterS > 15 {
			t.Fatalf("refusal %+v", b)
		}
		refused++
	}
	if ok != 10 || refused != 30 || e.fake.Count() != 10 || e.fake.MaxGetsPerMinute() != 10 {
		t.Fatalf("%d answered, %d refused, %d GETs (max %d a minute)", ok, refused, e.fake.Count(), e.fake.MaxGetsPerMinute())
	}
	// fetch shares the budget: refused, window not spent
	k := e.build(t, map[string]any{"terms": []string{"budget"}}).QueryKey
	wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": k}), envelope.RateLimited, "request budget")
	e.clock.Advance(15 * time.Second) // one request a 15 s
	if r := e.fetch(t, k); r.Status != "fresh" {
		t.Fatalf("after the refill: %+v", r)
	}
	e.clock.Advance(time.Minute)
	for i := range 10 {
		e.call(t, "preview_search_feed", map[string]any{"q": fmt.Sprintf("later%d", i)})
	}
	// 10 previews + the fetch at 09:30:15; 4 of the 10 later previews at 09:31:15
	perMinute := e.fake.GetsPerMinute()
	if len(perMinute) != 2 || perMinute[t0] != 11 || perMinute[t0.Add(time.Minute)] != 4 {
		t.Fatalf("GETs per minute %v", perMinute)
	}
}

// The budget holds for the host across replicas sharing the state.
func TestRequestBudgetAcrossReplicas(t *testing.T) {
	srv := redistest.StartServer(t)
	url := "redis://" + srv.Addr() + "/0"
	a := start(t, setup{redisURL: url, budget: true, args: []string{"--budget-burst", "3"}})
	b := start(t, setup{redisURL: url, budget: true, args: []string{"--budget-burst", "3"}, fake: a.fake, clock: a.clock, base: a.base})
	a.preview(t, map[string]any{"q": "one"})
	a.preview(t, map[string]any{"q": "two"})
	b.preview(t, map[string]any{"q": "three"})
	wantError(t, b.call(t, "preview_search_feed", map[string]any{"q": "four"}), envelope.RateLimited, "request budget")
	wantError(t, a.call(t, "preview_search_feed", map[string]any{"q": "five"}), envelope.RateLimited, "request budget")
	if n := a.fake.Count(); n != 3 {
		t.Fatalf("%d GETs across replicas, budget 3", n)
	}
}

// Left alone, the fake throttles like Google after a run of requests; the
// default budget keeps a burst of previews below that.
func TestBudgetStaysUnderThrottle(t *testing.T) {
	for _, withBudget := range []bool{false, true} {
		clk := start(t, setup{}).clock
		f := fake.New(fake.Options{Now: clk.Now, ThrottleAbove: 20})
		e := start(t, setup{fake: f, clock: clk, budget: withBudget})
		throttled := 0
		for i := range 40 {
			res := e.call(t, "preview_search_feed", map[string]any{"q": fmt.Sprintf("run%d", i)})
			if res.IsError && strings.Contains(servetest.Text(res), "/sorry/") {
				throttled++
			}
		}
		if withBudget != (throttled == 0) {
			t.Fatalf("budget %v: %d throttled answers, %d GETs", withBudget, throttled, f.Count())
		}
	}
}

// A preview of a query fetched within the feed's freshness (3 h) is served
// from that copy, without a request.
func TestPreviewServedFromFeedCopy(t *testing.T) {
	e := start(t, setup{})
	b := e.build(t, map[string]any{"terms": []string{"copper"}})
	f := e.fetch(t, b.QueryKey)
	if f.Status != "fresh" || f.ItemCount != 28 || len(f.Items) != 28 {
		t.Fatalf("%+v", f)
	}
	e.clock.Advance(2 * time.Hour)
	for _, args := range []map[string]any{{"query_key": b.QueryKey, "limit": 3}, {"q": "Copper"}} {
		p := e.preview(t, args)
		if p.ServedFrom != "feed_cache" || p.FetchedAt != f.FetchedAt || p.ItemCount != 28 || e.fake.Count() != 1 {
			t.Fatalf("preview %v: %s %s %d, %d GETs", args, p.ServedFrom, p.FetchedAt, p.ItemCount, e.fake.Count())
		}
	}
	e.clock.Advance(time.Hour + time.Minute) // the copy is 3 h old
	if p := e.preview(t, map[string]any{"query_key": b.QueryKey}); p.ServedFrom != "google" || e.fake.Count() != 2 {
		t.Fatalf("stale copy: %s, %d GETs", p.ServedFrom, e.fake.Count())
	}
	if p := e.preview(t, map[string]any{"query_key": b.QueryKey}); p.ServedFrom != "preview_cache" || e.fake.Count() != 2 {
		t.Fatalf("repeat: %s, %d GETs", p.ServedFrom, e.fake.Count())
	}
}

// Callers waiting on a poll in flight take the window over when that poll
// fails without throttling (the holder gives the window back): one of them
// polls, the others get its result.
func TestFetchWaitersTakeOverAfterTransientFailure(t *testing.T) {
	e := start(t, setup{timeout: "1s"})
	k := e.build(t, map[string]any{"terms": []string{"barley"}}).QueryKey
	e.fake.SetFaults(fake.Faults{Status: 500, SlowMS: 150, Times: 2}) // the first poll's two attempts
	type answer struct {
		status string
		code   envelope.Code
	}
	done := make(chan answer, 4)
	for range 4 {
		go func() {
			res, err := e.conn.CallCtx(t.Context(), "fetch_search_feed", map[string]any{"query_key": k})
			switch {
			case err != nil:
				t.Errorf("fetch: %v", err)
				done <- answer{}
			case res.IsError:
				done <- answer{code: servetest.ErrorBody(t, res).Code}
			default:
				var out fetched
				decodeInto(t, res, &out)
				done <- answer{status: out.Status}
			}
		}()
	}
	got := map[string]int{}
	for range 4 {
		a := <-done
		got[a.status+string(a.code)]++
	}
	if got["upstream_error"] != 1 || got["fresh"] != 1 || got["cached"] != 2 || e.fake.Count() != 3 {
		t.Fatalf("answers %v, %d requests", got, e.fake.Count())
	}
}
