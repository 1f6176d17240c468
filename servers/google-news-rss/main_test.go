package main

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/tools"
)

// t0 is inside the 09:00–12:00 UTC window.
var t0 = time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

type env struct {
	conn  *servetest.Conn
	fake  *fake.Server
	clock *clock.Fake
	base  string
}

type setup struct {
	redisURL string
	timeout  string
	fake     *fake.Server // shared fake (replicas); nil = a new one
	clock    *clock.Fake  // shared clock; nil = a new one at t0
	base     string       // overrides the fake's URL
	args     []string
	budget   bool // keep the default request budget (else it is out of the way)
}

func start(t *testing.T, s setup) *env {
	t.Helper()
	e := &env{fake: s.fake, clock: s.clock, base: s.base}
	if e.clock == nil {
		e.clock = clock.NewFake(t0)
	}
	if e.fake == nil {
		e.fake = fake.New(fake.Options{Now: e.clock.Now})
	}
	if e.base == "" {
		base, stop := e.fake.Start()
		t.Cleanup(stop)
		e.base = base
	}
	if s.timeout == "" {
		s.timeout = "2s"
	}
	t.Setenv("MCPFLEET_REDIS_URL", s.redisURL)
	cfg := &tools.Config{Clock: e.clock, RetryWait: 10 * time.Millisecond, WaitFor: 3 * time.Second}
	args := append([]string{"--base-url", e.base, "--timeout", s.timeout}, s.args...)
	if !s.budget {
		args = append(args, "--budget-burst", "1000")
	}
	e.conn = servetest.New(t, app(cfg), args...)
	return e
}

func (e *env) call(t *testing.T, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return e.conn.Call(t, tool, args)
}

type built struct {
	QueryKey string `json:"query_key"`
	Q        string `json:"q"`
	Edition  string `json:"edition"`
	FeedURL  string `json:"feed_url"`
}

type item struct {
	Title           string `json:"title"`
	Publisher       string `json:"publisher"`
	PublisherDomain string `json:"domain"`
	URL             string `json:"url"`
	Published       string `json:"published"`
	Snippet         string `json:"snippet"`
}

type fetched struct {
	Status     string `json:"status"`
	FetchedAt  string `json:"fetched_at"`
	NextPollAt string `json:"next_poll_at"`
	ItemCount  int    `json:"item_count"`
	Items      []item `json:"items"`
	LastError  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"last_error"`
}

func (e *env) build(t *testing.T, args map[string]any) built {
	t.Helper()
	res := e.call(t, "build_search_feed", args)
	if res.IsError {
		t.Fatalf("build_search_feed %v: %s", args, servetest.Text(res))
	}
	return servetest.Decode[built](t, res)
}

func (e *env) fetch(t *testing.T, key string) fetched {
	t.Helper()
	res := e.call(t, "fetch_search_feed", map[string]any{"query_key": key})
	if res.IsError {
		t.Fatalf("fetch_search_feed: %s", servetest.Text(res))
	}
	return servetest.Decode[fetched](t, res)
}

func wantError(t *testing.T, res *mcp.CallToolResult, code envelope.Code, msg string) envelope.Body {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want %s error, got %s", code, servetest.Text(res))
	}
	b := servetest.ErrorBody(t, res)
	if b.Code != code || !strings.Contains(b.Message, msg) {
		t.Fatalf("want %s containing %q, got %+v", code, msg, b)
	}
	return b
}

func TestListEditions(t *testing.T) {
	e := start(t, setup{})
	out := servetest.Decode[struct {
		Editions []struct{ Country, HL, GL, CEID string } `json:"editions"`
		Presets  []struct {
			Name    string `json:"name"`
			Edition string `json:"edition"`
			Adds    string `json:"adds"`
		} `json:"presets"`
		Note string `json:"note"`
	}](t, e.call(t, "list_editions", nil))
	if len(out.Editions) != 24 || out.Editions[0].CEID != "US:en" || out.Editions[23].CEID != "LV:en" {
		t.Fatalf("editions: %+v", out.Editions)
	}
	for _, ed := range out.Editions {
		if ed.GL == "AE" {
			t.Fatal("AE must not be an English edition")
		}
	}
	if len(out.Presets) != 2 || out.Presets[0].Adds != `(UAE OR Dubai OR "Abu Dhabi")` || !strings.Contains(out.Note, "no English UAE edition") {
		t.Fatalf("presets/note: %+v %q", out.Presets, out.Note)
	}
}

func TestExplainOperators(t *testing.T) {
	e := start(t, setup{})
	out := servetest.Decode[struct {
		Operators []struct{ Operator, Status, Source, Example, Fix string } `json:"operators"`
		Order     string                                                    `json:"order"`
	}](t, e.call(t, "explain_operators", nil))
	statuses := map[string]int{}
	byOp := map[string]string{}
	for _, o := range out.Operators {
		statuses[o.Status]++
		byOp[o.Operator] = o.Status + " | " + o.Source
		if o.Status == "rejected" && o.Fix == "" {
			t.Errorf("%s: %s without a fix", o.Operator, o.Status)
		}
		if o.Source == "" {
			t.Errorf("%s: no source", o.Operator)
		}
		if o.Status != "documented" && o.Status != "reported" && o.Status != "rejected" {
			t.Errorf("%s: status %q", o.Operator, o.Status)
		}
	}
	if statuses["documented"] == 0 || statuses["reported"] == 0 || statuses["rejected"] == 0 || out.Order == "" {
		t.Fatalf("cheat-sheet: %v", statuses)
	}
	// what pygooglenews reports "tested one by one" is reported, with that source, not refused
	for _, op := range []string{"allintext:", "allinurl:", "inurl:"} {
		if got := byOp[op]; !strings.HasPrefix(got, "reported | kotartemiy/pygooglenews README") {
			t.Errorf("%s: %q", op, got)
		}
	}
	if e.fake.Count() != 0 {
		t.Fatal("explain_operators must not touch the network")
	}
}

func TestBuildSearchFeed(t *testing.T) {
	e := start(t, setup{})
	a := e.build(t, map[string]any{"terms": []string{"boeing"}, "phrases": []string{"supply chain"},
		"any_of": [][]string{{"strike", "walkout"}}, "exclude": []string{"rumor"}, "site": []string{"reuters.com", "apnews.com"}, "when": "2d", "edition": "gb"})
	wantQ := `boeing "supply chain" (strike OR walkout) -rumor (site:apnews.com OR site:reuters.com) when:2d`
	if a.Q != wantQ || a.Edition != "GB:en" {
		t.Fatalf("built %+v", a)
	}
	wantURL := e.base + `/rss/search?q=boeing+%22supply+chain%22+%28strike+OR+walkout%29+-rumor+%28site%3Aapnews.com+OR+site%3Areuters.com%29+when%3A2d&hl=en-GB&gl=GB&ceid=GB%3Aen`
	if a.FeedURL != wantURL {
		t.Fatalf("feed_url %s\nwant     %s", a.FeedURL, wantURL)
	}
	// the same meaning as a raw q, reordered and re-cased → the same key
	b := e.build(t, map[string]any{"q": `when:2d -Rumor (site:reuters.com OR site:apnews.com) Boeing walkout OR strike "supply  chain"`, "edition": "GB:en"})
	if b.QueryKey != a.QueryKey {
		t.Fatalf("same meaning, keys %s and %s (%q vs %q)", a.QueryKey, b.QueryKey, a.Q, b.Q)
	}
	if c := e.build(t, map[string]any{"q": a.Q, "edition": "US"}); c.QueryKey == a.QueryKey {
		t.Fatal("another edition must give another key")
	}
	// operators public clients report working are built, not refused
	for raw, want := range map[string]string{
		"allintitle:strike boeing":   "allintitle: boeing strike",
		"allintext:tariff steel":     "allintext: steel tariff",
		"allinurl:markets oil":       "allinurl: markets oil",
		"oil inurl:markets when:48h": "oil inurl:markets when:48h",
	} {
		if got := e.build(t, map[string]any{"q": raw}); got.Q != want {
			t.Errorf("build %q = %q, want %q", raw, got.Q, want)
		}
	}
	uae := e.build(t, map[string]any{"terms": []string{"oil"}, "preset": "uae_focus"})
	if uae.Q != `oil ("Abu Dhabi" OR Dubai OR UAE)` || uae.Edition != "US:en" {
		t.Fatalf("uae_focus: %+v", uae)
	}

	for _, tc := range []struct {
		name string
		args map[string]any
		msg  string
	}{
		{"english UAE", map[string]any{"terms": []string{"oil"}, "edition": "AE:en"}, "no English UAE edition"},
		{"unlisted edition", map[string]any{"terms": []string{"oil"}, "edition": "FR"}, "list_editions"},
		{"legacy operator", map[string]any{"q": "oil source:new_york_times"}, "site:nytimes.com"},
		{"when and after", map[string]any{"terms": []string{"oil"}, "when": "1d", "after": "2026-01-01"}, "either when"},
		{"empty", map[string]any{}, "empty"},
		{"over-long", map[string]any{"phrases": []string{strings.Repeat("long phrase ", 40)}}, "limit"},
		{"q and fields", map[string]any{"q": "oil", "terms": []string{"gas"}}, "not both"},
		{"preset and other edition", map[string]any{"terms": []string{"oil"}, "preset": "uae_focus", "edition": "GB"}, "drop edition"},
		{"when years", map[string]any{"terms": []string{"oil"}, "when": "1y"}, "after/before date pair"},
		{"when months", map[string]any{"terms": []string{"oil"}, "when": "6m"}, "months or minutes"},
		{"intext", map[string]any{"q": "intext:tariff"}, "allintext:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := wantError(t, e.call(t, "build_search_feed", tc.args), envelope.InvalidArgument, tc.msg)
			if b.Retryable {
				t.Error("a bad argument is not retryable")
			}
		})
	}
	if e.fake.Count() != 0 {
		t.Fatal("build_search_feed must not touch the network")
	}
}

func TestPreviewSearchFeed(t *testing.T) {
	e := start(t, setup{})
	res := e.call(t, "preview_search_feed", map[string]any{"q": "boeing OR airbus", "edition": "IN", "limit": 5})
	if res.IsError {
		t.Fatal(servetest.Text(res))
	}
	out := servetest.Decode[struct {
		built
		FetchedAt string `json:"fetched_at"`
		ItemCount int    `json:"item_count"`
		Items     []item `json:"items"`
	}](t, res)
	if len(out.Items) != 5 || out.ItemCount != 28 { // 30 stories, 2 duplicates dropped
		t.Fatalf("%d items of %d", len(out.Items), out.ItemCount)
	}
	got := e.fake.Requests()
	if len(got) != 1 || got[0] != (fake.Request{Q: "airbus OR boeing", HL: "en-IN", GL: "IN", CEID: "IN:en"}) {
		t.Fatalf("upstream received %+v", got)
	}
	it := out.Items[0]
	if it.Title != "Story 1 about airbus OR boeing" || it.Publisher != "Reuters" || it.PublisherDomain != "reuters.com" ||
		!strings.HasPrefix(it.URL, "https://news.google.com/rss/articles/CBMi") || it.Published != "2026-11-24T09:27:00Z" ||
		!strings.HasPrefix(it.Snippet, "Related coverage 1 of story 1 (") {
		t.Fatalf("item %+v", it)
	}
	// by key, within a minute: served from memory
	res = e.call(t, "preview_search_feed", map[string]any{"query_key": out.QueryKey})
	if res.IsError || e.fake.Count() != 1 {
		t.Fatalf("repeat preview: %s, upstream count %d", servetest.Text(res), e.fake.Count())
	}
	wantError(t, e.call(t, "preview_search_feed", map[string]any{"query_key": "gnq_" + strings.Repeat("a", 24)}), envelope.NotFound, "build_search_feed")
	wantError(t, e.call(t, "preview_search_feed", map[string]any{"query_key": out.QueryKey, "q": "x"}), envelope.InvalidArgument, "not both")
}

// Each upstream fault, through preview (which has no window to defer to).
func TestPreviewFaults(t *testing.T) {
	e := start(t, setup{timeout: "300ms"})
	cases := []struct {
		name      string
		f         fake.Faults
		code      envelope.Code
		msg       string
		retryable bool
		requests  int
	}{
		{"429", fake.Faults{Status: 429}, envelope.RateLimited, "throttling", true, 1},
		{"503", fake.Faults{Status: 503}, envelope.RateLimited, "throttling", true, 1},
		{"403", fake.Faults{Status: 403}, envelope.RateLimited, "throttling", true, 1},
		{"sorry page", fake.Faults{Sorry: true}, envelope.RateLimited, "Sorry", true, 1},
		{"non-RSS 200", fake.Faults{NonRSS: true}, envelope.UpstreamError, "not an RSS feed", false, 1},
		{"truncated", fake.Faults{Truncated: true}, envelope.UpstreamError, "truncated", true, 1},
		{"unsupported", fake.Faults{Unsupported: true}, envelope.UpstreamError, "for edition CA:en", false, 1},
		{"slow, retried once", fake.Faults{SlowMS: 2000}, envelope.Timeout, "within", true, 2},
		{"500 twice", fake.Faults{Status: 500}, envelope.UpstreamError, "500", true, 2},
		{"302 to google.com/sorry", fake.Faults{SorryRedirect: true}, envelope.RateLimited, "/sorry/", true, 1},
		{"303 to google.com/sorry", fake.Faults{SorryRedirect: true, RedirectStatus: 303}, envelope.RateLimited, "303 redirect", true, 1},
		{"consent redirect", fake.Faults{Consent: true}, envelope.UpstreamError, "consent.google.com", false, 1},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.SetFaults(tc.f)
			defer e.fake.ClearFaults()
			e.clock.Advance(2 * time.Hour) // past a throttled case's hold
			before := e.fake.Count()
			res := e.call(t, "preview_search_feed", map[string]any{"q": "fault " + string(rune('a'+i)), "edition": "CA"})
			b := wantError(t, res, tc.code, tc.msg)
			if b.Retryable != tc.retryable {
				t.Errorf("retryable %v", b.Retryable)
			}
			if tc.code == envelope.RateLimited && (b.RetryAfterS == nil || *b.RetryAfterS <= 0) {
				t.Errorf("rate_limited without retry_after: %+v", b)
			}
			if n := e.fake.Count() - before; n != tc.requests {
				t.Errorf("%d upstream requests, want %d", n, tc.requests)
			}
		})
	}
	// one 500, then the retry succeeds
	e.fake.SetFaults(fake.Faults{Status: 500, Times: 1})
	before := e.fake.Count()
	if res := e.call(t, "preview_search_feed", map[string]any{"q": "retry me"}); res.IsError {
		t.Fatal(servetest.Text(res))
	}
	if n := e.fake.Count() - before; n != 2 {
		t.Fatalf("%d requests, want 2 (one retry)", n)
	}
}

func TestFetchSearchFeedWindows(t *testing.T) {
	e := start(t, setup{})
	k := e.build(t, map[string]any{"terms": []string{"tariffs"}}).QueryKey
	first := e.fetch(t, k)
	if first.Status != "fresh" || first.FetchedAt != "2026-11-24T09:30:00Z" ||
		first.NextPollAt != "2026-11-24T12:00:00Z" || len(first.Items) != 28 {
		t.Fatalf("first fetch %+v", first)
	}
	e.clock.Advance(2 * time.Hour)
	if again := e.fetch(t, k); again.Status != "cached" || again.FetchedAt != first.FetchedAt || len(again.Items) != 28 {
		t.Fatalf("same window %+v", again)
	}
	if e.fake.Count() != 1 {
		t.Fatalf("%d polls in one window", e.fake.Count())
	}
	// since: only items published after it
	res := e.call(t, "fetch_search_feed", map[string]any{"query_key": k, "since": "2026-11-24T09:00:00Z"})
	if s := servetest.Decode[fetched](t, res); s.Status != "cached" || len(s.Items) != 2 { // 09:27 and 09:10
		t.Fatalf("since: %d items", len(s.Items))
	}
	wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": k, "since": "yesterday"}), envelope.InvalidArgument, "RFC 3339")
	e.clock.Advance(time.Hour) // 12:30: next window
	if next := e.fetch(t, k); next.Status != "fresh" || next.FetchedAt != "2026-11-24T12:30:00Z" || e.fake.Count() != 2 {
		t.Fatalf("next window %+v, %d polls", next, e.fake.Count())
	}
	wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": "gnq_" + strings.Repeat("b", 24)}), envelope.NotFound, "build_search_feed")
}

// A throttled poll keeps the window's claim: the feed is deferred, the cache
// is served with the reason, and Google is not polled again until the next
// window.
func TestFetchDeferredNotPolledAgainInWindow(t *testing.T) {
	cases := []struct {
		name string
		f    fake.Faults
		code string
		msg  string
	}{
		{"429", fake.Faults{Status: 429}, "rate_limited", "HTTP Too Many Requests"},
		{"503", fake.Faults{Status: 503}, "rate_limited", "HTTP Service Unavailable"},
		{"sorry page", fake.Faults{Sorry: true}, "rate_limited", "Sorry"},
		{"302 to google.com/sorry", fake.Faults{SorryRedirect: true}, "rate_limited", "302 redirect to its \"unusual traffic\" page"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, setup{timeout: "5s"})
			k := e.build(t, map[string]any{"terms": []string{"grain"}}).QueryKey
			if f := e.fetch(t, k); f.Status != "fresh" {
				t.Fatalf("%+v", f)
			}
			e.clock.Advance(3 * time.Hour) // 12:30, a new window
			e.fake.SetFaults(tc.f)
			d := e.fetch(t, k)
			if d.Status != "deferred" || d.LastError == nil || d.LastError.Code != tc.code || !strings.Contains(d.LastError.Message, tc.msg) ||
				strings.Contains(d.LastError.Message, "GOOGLE_NEWS_BASE_URL") || len(d.Items) != 28 ||
				d.FetchedAt != "2026-11-24T09:30:00Z" || d.NextPollAt != "2026-11-24T15:00:00Z" {
				t.Fatalf("deferred fetch %+v", d)
			}
			e.fake.ClearFaults()
			e.clock.Advance(2 * time.Hour) // 14:30, same window, Google healthy again
			if again := e.fetch(t, k); again.Status != "deferred" || len(again.Items) != 28 {
				t.Fatalf("same window after deferral %+v", again)
			}
			if n := e.fake.Count(); n != 2 {
				t.Fatalf("%d polls, want 2 (no poll in the deferred window)", n)
			}
			e.clock.Advance(time.Hour) // 15:30
			if next := e.fetch(t, k); next.Status != "fresh" || next.LastError != nil || e.fake.Count() != 3 {
				t.Fatalf("next window %+v", next)
			}
		})
	}
}

// Nothing reached Google (connection refused): the claim is given back, so
// a later call in the same window polls.
func TestFetchUnreachableReleasesClaim(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // refused until the fake listens there
	f := fake.New(fake.Options{Now: func() time.Time { return t0 }})
	e := start(t, setup{fake: f, base: "http://" + addr})
	k := e.build(t, map[string]any{"terms": []string{"copper"}}).QueryKey
	b := wantError(t, e.call(t, "fetch_search_feed", map[string]any{"query_key": k}), envelope.UpstreamUnavailable, "GOOGLE_NEWS_BASE_URL")
	if !b.Retryable {
		t.Error("unreachable is retryable")
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	hs := &http.Server{Handler: f, ReadHeaderTimeout: time.Second}
	go func() { _ = hs.Serve(l) }()
	defer hs.Close()
	// same server, same window: the claim was given back, so this call polls
	if r := e.fetch(t, k); r.Status != "fresh" || f.Count() != 1 {
		t.Fatalf("%+v, %d polls", r, f.Count())
	}
}

func decodeInto(t *testing.T, res *mcp.CallToolResult, out *fetched) {
	*out = servetest.Decode[fetched](t, res)
}

// Concurrent callers on one replica while the poll is in flight: one polls,
// the others wait for its result and get it as cached.
func TestFetchConcurrentOneReplica(t *testing.T) {
	e := start(t, setup{})
	k := e.build(t, map[string]any{"terms": []string{"wheat"}}).QueryKey
	e.fake.SetFaults(fake.Faults{SlowMS: 300})
	done := make(chan fetched, 5)
	for i := 0; i < 5; i++ {
		go func() {
			res, err := e.conn.CallCtx(t.Context(), "fetch_search_feed", map[string]any{"query_key": k})
			if err != nil || res.IsError {
				t.Errorf("fetch: %v %v", err, res)
				done <- fetched{}
				return
			}
			var out fetched
			decodeInto(t, res, &out)
			done <- out
		}()
	}
	fresh := 0
	for i := 0; i < 5; i++ {
		out := <-done
		if out.Status == "fresh" {
			fresh++
		} else if out.Status != "cached" || len(out.Items) != 28 {
			t.Errorf("waiter got %+v", out.Status)
		}
	}
	if fresh != 1 || e.fake.Count() != 1 {
		t.Fatalf("%d fresh, %d polls", fresh, e.fake.Count())
	}
}
