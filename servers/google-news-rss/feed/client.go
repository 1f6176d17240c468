package feed

import (
	"context"
	"errors"
	"net/http"
	"net/url"
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
	// maxAttempts: one retry, only on connection errors and 500/502/504.
	maxAttempts = 2
	// UnsupportedPath is where Google redirects feeds it does not serve (§1.5).
	UnsupportedPath = "/rss/unsupported"
)

// Config configures a Client.
type Config struct {
	BaseURL   string        // default DefaultBaseURL
	Timeout   time.Duration // whole call, both attempts; default 10 s
	RetryWait time.Duration // first backoff; default 300 ms, capped at 1 s
	Logger    zerolog.Logger
}

// Client fetches search feeds. Safe for concurrent use.
type Client struct {
	public    string // base without credentials, for URLs shown to callers
	up        *upstream.Client
	base      string
	timeout   time.Duration
	retryWait time.Duration
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
	return &Client{public: PublicBase(base),
		up: upstream.New(upstream.Config{
			Name: "Google News", BaseURL: base, URLEnv: EnvBaseURL, Timeout: cfg.Timeout,
			Retries:      -1, // this client decides what is retried (429/503 never are)
			MaxBodyBytes: MaxBodyBytes, Logger: cfg.Logger, Transport: finalPathTransport{http.DefaultTransport.(*http.Transport).Clone()},
			// Outsharp's SKILL.md: empty or bot-like User-Agents may be blocked (§1.5).
			UserAgent: "Mozilla/5.0 (compatible; mcpfleet-google-news-rss/1; feed reader)",
		}),
		base: base, timeout: cfg.Timeout, retryWait: cfg.RetryWait,
	}
}

// FeedURL is the search feed URL of q on edition e: q, hl, gl, ceid in that
// order (news-websearch.md §1.1), spaces as +, quotes as %22, ceid's colon %3A.
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
// deadline, the second only after a connection error or a 500/502/504.
// Throttling (429, 503, 403, the "Sorry…" page) is never retried: the caller
// defers to the next window (Throttled reports it).
func (c *Client) Fetch(ctx context.Context, q string, e query.Edition) (Feed, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	params := url.Values{"q": {q}, "hl": {e.HL}, "gl": {e.GL}, "ceid": {e.CEID}}
	for attempt := 1; ; attempt++ {
		var final atomic.Value
		actx := context.WithValue(ctx, finalPathKey{}, &final)
		resp, err := c.up.Do(actx, upstream.Request{Op: "search feed", Path: "/rss/search", Query: params, NoDetect: true})
		if err == nil {
			if p, _ := final.Load().(string); strings.HasPrefix(p, UnsupportedPath) {
				return Feed{}, Unsupported(e.CEID)
			}
			return Parse(resp.Body, e.CEID)
		}
		err = classify(err)
		if attempt >= maxAttempts || !retryable(err) {
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

// NotSent reports an error that proves nothing reached Google (the
// connection was refused or the name did not resolve), so a window claim can
// be given back.
func NotSent(err error) bool {
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.UpstreamUnavailable {
		return false
	}
	_, hasStatus := e.Details["http_status"]
	return !hasStatus && strings.HasPrefix(e.Message, "cannot reach")
}

func statusOf(e *envelope.Error) int {
	s, _ := e.Details["http_status"].(int)
	return s
}

// classify turns throttling statuses into the throttled error (ref:
// news-websearch.md §0.3 and §1.5: 429, 503, and 403 for some clients).
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
	switch statusOf(e) {
	case 500, 502, 504:
		return true
	case 0:
		// connection refused/reset or a cut-off body; a deadline is not retried
		return e.Code == envelope.UpstreamUnavailable || (e.Code == envelope.UpstreamError && e.Retryable)
	}
	return false
}

// finalPathTransport records the path of the last request of a call (after
// redirects), so a redirect to /rss/unsupported is recognized even if the
// page it serves changes (§1.5: its markup is unverified).
type finalPathTransport struct{ rt http.RoundTripper }

type finalPathKey struct{}

func (t finalPathTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if v, ok := r.Context().Value(finalPathKey{}).(*atomic.Value); ok {
		v.Store(r.URL.Path)
	}
	return t.rt.RoundTrip(r)
}
