package feed

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// Settings and defaults.
const (
	EnvBaseURL     = "GOOGLE_NEWS_BASE_URL"
	DefaultBaseURL = "https://news.google.com"
	DefaultTimeout = 10 * time.Second
	// MaxBodyBytes caps a feed: ~100 items of a real feed are well under 1 MiB.
	MaxBodyBytes = 2 << 20
	// maxAttempts: one retry, only on connection errors, timeouts and
	// 500/502/504; each attempt gets half of the call's deadline.
	maxAttempts = 2
	// UnsupportedPath is where Google redirects feeds it does not serve
	// (pygooglenews pygooglenews/__init__.py).
	UnsupportedPath = "/rss/unsupported"
)

// Config configures a Client.
type Config struct {
	BaseURL   string        // default DefaultBaseURL
	Timeout   time.Duration // whole call, both attempts; default 10 s
	RetryWait time.Duration // first backoff; default 300 ms, capped at 1 s
	Logger    zerolog.Logger
	// Budget, if set, is asked before every request to Google (each
	// attempt): the request budget of the upstream host shared by every
	// caller (see NewBudget). Its refusal ends the call before anything is sent.
	Budget *Budget
}

// Client fetches search feeds. Safe for concurrent use.
type Client struct {
	public    string // base without credentials, for URLs shown to callers
	up        *upstream.Client
	base      string
	timeout   time.Duration
	retryWait time.Duration
	budget    *Budget
	// log records what the caller's answer does not carry
	log zerolog.Logger
	// throttles counts consecutive throttled polls (reset by a success): the
	// retry-after given when Google sends none grows with it.
	throttles atomic.Int32
	// parses bounds the feeds parsed at once to the CPUs: a parse is CPU
	// work, so more at once only holds more bodies and parse trees in memory
	// (16 concurrent previews held 16) without finishing any sooner.
	parses chan struct{}
}

// New builds a Client.
func New(cfg Config) *Client {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.RetryWait <= 0 {
		cfg.RetryWait = 300 * time.Millisecond
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	var limiter func(context.Context) error
	if cfg.Budget != nil {
		limiter = cfg.Budget.Take
	}
	return &Client{public: PublicBase(base),
		up: upstream.New(upstream.Config{
			Name: "Google News", BaseURL: base, URLEnv: EnvBaseURL, Timeout: cfg.Timeout,
			Retries:      -1, // this client decides what is retried (429/503 never are)
			MaxBodyBytes: MaxBodyBytes, Logger: cfg.Logger, Transport: finalPathTransport{http.DefaultTransport.(*http.Transport).Clone()},
			// Outsharp/shipp-skills skills/google-news/SKILL.md: empty or bot-like User-Agents may be blocked.
			UserAgent:         "Mozilla/5.0 (compatible; mcpfleet-google-news-rss/1; feed reader)",
			Limiter:           limiter,
			CrossHostRedirect: classifyRedirect,
		}),
		base: base, timeout: cfg.Timeout, retryWait: cfg.RetryWait, budget: cfg.Budget, log: cfg.Logger,
		parses: make(chan struct{}, max(runtime.GOMAXPROCS(0), 1)),
	}
}

// Base is the configured base URL (credentials included: never shown).
func (c *Client) Base() string { return c.base }

// FeedURL is the search feed URL of q on edition e: q, hl, gl, ceid in that
// order (as Google's picker and pygooglenews send them), spaces as +, quotes
// as %22, ceid's colon %3A.
func (c *Client) FeedURL(q string, e query.Edition) string {
	return FeedURL(c.public, q, e)
}

// PublicBase is a base URL without user info, query or fragment: what results
// and logs may show.
func PublicBase(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment = nil, "", "", ""
	return strings.TrimRight(u.String(), "/")
}

// FeedURL builds the feed URL on a base.
func FeedURL(base, q string, e query.Edition) string {
	return base + "/rss/search?q=" + url.QueryEscape(q) + "&hl=" + url.QueryEscape(e.HL) +
		"&gl=" + url.QueryEscape(e.GL) + "&ceid=" + url.QueryEscape(e.CEID)
}

// Fetch polls the search feed once: at most 2 attempts within one 10 s
// deadline (each at most half of it), the second only after a connection
// error, a timeout or a 500/502/504. Throttling (429, 503, 403, the "Sorry…"
// page, a redirect to google.com/sorry) is never retried: the caller defers
// to the next window (Throttled reports it), with Google's Retry-After or,
// without one, a backoff that grows with consecutive throttles; the budget
// then holds every request to the host for that long.
func (c *Client) Fetch(ctx context.Context, q string, e query.Edition) (Feed, error) {
	f, err := c.fetch(ctx, q, e)
	switch {
	case err == nil:
		c.throttles.Store(0)
	case Throttled(err):
		n := c.throttles.Add(1)
		t := err.(*envelope.Error)
		if t.RetryAfter <= 0 {
			t = t.WithRetryAfter(ThrottleBackoff(int(n)))
		}
		// nobody asks Google again before it said (shared with the budget)
		if herr := c.budget.Hold(context.WithoutCancel(ctx), t.RetryAfter); herr != nil {
			c.log.Warn().Err(herr).Msg("google-news-rss: recording Google's throttle hold failed; the budget alone limits requests")
		}
		err = t
	}
	return f, err
}

// Throttle backoff when Google sends no Retry-After (// assumed: Google
// documents no block duration; public clients wait minutes, GNews caps its
// own 429 backoff at 60 s per retry, ranahaani/GNews docs/usage/retries.md).
const (
	throttleBackoffBase = 5 * time.Minute
	throttleBackoffMax  = time.Hour
)

// ThrottleBackoff is the retry-after of the n-th consecutive throttle
// without a Retry-After: 5 min doubling, capped at 1 h.
func ThrottleBackoff(n int) time.Duration {
	d := throttleBackoffBase
	for i := 1; i < n && d < throttleBackoffMax; i++ {
		d *= 2
	}
	return min(d, throttleBackoffMax)
}

func (c *Client) fetch(ctx context.Context, q string, e query.Edition) (Feed, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	params := url.Values{"q": {q}, "hl": {e.HL}, "gl": {e.GL}, "ceid": {e.CEID}}
	for attempt := 1; ; attempt++ {
		var final atomic.Value
		actx := context.WithValue(ctx, finalPathKey{}, &final)
		resp, err := c.up.Do(actx, upstream.Request{Op: "search feed", Path: "/rss/search", Query: params, NoDetect: true,
			Timeout: c.timeout / maxAttempts})
		if err == nil {
			if p, _ := final.Load().(string); strings.HasPrefix(p, UnsupportedPath) {
				return Feed{}, Unsupported(e.CEID)
			}
			return c.parse(ctx, resp.Body, e.CEID)
		}
		err = classify(err)
		if e, ok := err.(*envelope.Error); ok && e.Code == envelope.NotFound {
			// Google answers every /rss/search; a 404 means the base URL
			// points somewhere else.
			return Feed{}, envelope.New(envelope.UpstreamError, "%s answered 404 for /rss/search: %s does not point at Google News (default %s); fix it and restart", c.public, EnvBaseURL, DefaultBaseURL).
				WithDetail("http_status", http.StatusNotFound).WithCause(e)
		}
		if attempt >= maxAttempts || !retryable(err) || ctx.Err() != nil {
			return Feed{}, err
		}
		wait := min(c.retryWait<<(attempt-1), time.Second)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= wait {
			return Feed{}, err
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return Feed{}, err
		}
	}
}

// parse runs Parse when a parse slot is free, within the call's deadline.
func (c *Client) parse(ctx context.Context, body []byte, edition string) (Feed, error) {
	select {
	case c.parses <- struct{}{}:
		defer func() { <-c.parses }()
		return Parse(body, edition)
	case <-ctx.Done():
		return Feed{}, envelope.New(envelope.Timeout, "Google News answered, but this server was too busy reading other feeds to read it before the call's deadline; try again shortly").
			WithRetryable(true).WithCause(ctx.Err())
	}
}

func statusOf(e *envelope.Error) int {
	s, _ := e.Details["http_status"].(int)
	return s
}

// classify turns throttling statuses into the throttled error (429:
// ranahaani/GNews docs/usage/retries.md; 503: Hakim-Github/my-google-news#2;
// 403: yang991178/fluent-reader#273).
func classify(err error) error {
	var e *envelope.Error
	if !errors.As(err, &e) {
		return err
	}
	switch s := statusOf(e); s {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusForbidden:
		t := throttled("HTTP "+http.StatusText(s), s)
		if e.RetryAfter > 0 {
			t.RetryAfter = e.RetryAfter
		}
		return t.WithCause(e)
	}
	return err
}

func retryable(err error) bool {
	var e *envelope.Error
	if !errors.As(err, &e) || Throttled(err) {
		return false
	}
	if e.Details[budgetMark] == true {
		return false
	}
	switch statusOf(e) {
	case 500, 502, 504:
		return true
	case 0:
		// connection refused/reset, a cut-off body, or an attempt's deadline
		return e.Code == envelope.UpstreamUnavailable || e.Code == envelope.Timeout || (e.Code == envelope.UpstreamError && e.Retryable)
	}
	return false
}

// classifyRedirect says what a redirect from news.google.com to another host
// means; it is never followed (pkg/upstream refuses to carry requests to
// another host).
//
//   - www.google.com/sorry/index?continue=… is Google's "unusual traffic"
//     block: news.google.com answers 302 to it, and it answers 429 (recorded
//     in public scrapers that check for a final URL starting
//     "https://www.google.com/sorry/index?continue=https://news.google.com/";
//     iv-org/invidious PR #2519 for the Sorry page). Throttling:
//     rate_limited. It is recognized by its /sorry/ path on any host, so a
//     stand-in for www.google.com (the fake's) reads the same.
//   - consent.google.com is Google's cookie-consent interstitial for
//     EU/EEA/UK visitors (// assumed for the RSS path: seen for other
//     Google hosts, not captured for news.google.com/rss).
//   - anything else keeps the generic refusal.
func classifyRedirect(resp *http.Response, to *url.URL) *envelope.Error {
	host := strings.ToLower(to.Hostname())
	switch {
	case sorryPath(to.Path):
		t := throttled("a "+strconv.Itoa(resp.StatusCode)+" redirect to its \"unusual traffic\" page "+host+"/sorry/", resp.StatusCode).
			WithDetail("redirect_host", host)
		if ra, ok := upstream.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok && ra > 0 {
			t = t.WithRetryAfter(ra)
		}
		return t
	case host == "consent.google.com" || strings.HasPrefix(host, "consent.google."):
		return envelope.New(envelope.UpstreamError,
			"Google News redirected this server to its cookie-consent page (%s), which Google shows to requests from the EU/EEA/UK region; a feed reader cannot accept it: run the server (or its outbound proxy, via GOOGLE_NEWS_BASE_URL) from a region outside the EU/EEA/UK", host).
			WithDetail("redirect_host", host).WithDetail("http_status", resp.StatusCode).WithRetryable(false)
	}
	return nil
}

func sorryPath(p string) bool { return p == "/sorry" || strings.HasPrefix(p, "/sorry/") }

// finalPathTransport records the path of the last request of a call (after
// redirects), so a redirect to /rss/unsupported is recognized even if the
// page it serves changes (assumed: its markup was never captured).
type finalPathTransport struct{ rt http.RoundTripper }

type finalPathKey struct{}

func (t finalPathTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if v, ok := r.Context().Value(finalPathKey{}).(*atomic.Value); ok {
		v.Store(r.URL.Path)
	}
	return t.rt.RoundTrip(r)
}
