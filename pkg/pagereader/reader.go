package pagereader

import (
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// The environment variables FromEnv reads.
const (
	// EnvAllowLoopback=1 lets pages on 127.0.0.0/8 and ::1 be read: for tests
	// and local fakes only (a deployed reader must not reach its own host).
	EnvAllowLoopback = "MCPFLEET_FETCH_ALLOW_LOOPBACK"
	// EnvUserAgent replaces the declared user agent; its product token
	// (before the first "/") is the one robots.txt rules are matched on.
	EnvUserAgent = "MCPFLEET_FETCH_USER_AGENT"
)

// Defaults.
const (
	DefaultUserAgent    = "mcpfleet-pagereader/1 (+https://github.com/mcpfleet/mcpfleet; reads one page an agent asked for)"
	DefaultMaxBytes     = 2 << 20
	DefaultTimeout      = 20 * time.Second
	DefaultMaxRedirects = 5
	// DefaultMaxText bounds the text kept of one page (runes); callers page
	// through it.
	DefaultMaxText  = 200_000
	DefaultCacheTTL = 15 * time.Minute
	// DefaultPerHostRate: requests a second to one host, robots.txt included.
	DefaultPerHostRate  = 1
	defaultPerHostBurst = 3
	maxLinks            = 60
	robotsMaxBytes      = 512 << 10
)

// Config configures a Reader; zero fields get the defaults.
type Config struct {
	UserAgent     string
	MaxBytes      int64
	Timeout       time.Duration
	MaxRedirects  int
	MaxText       int
	AllowLoopback bool
	// IgnoreRobots skips robots.txt (tests of the extraction only; a server
	// never sets it).
	IgnoreRobots bool
	// Resolver replaces DNS (tests).
	Resolver Resolver
	// PerHostRate bounds requests a second per host; Limits is the backend
	// of that limit (ratelimit.WithStore/WithRedis; memory when empty).
	PerHostRate int
	Limits      []ratelimit.Option
	// CacheTTL > 0 keeps pages read that long; Cache is its backend
	// (cache.WithStore/WithRedis; memory when empty). RobotsCache is the
	// backend of the robots.txt files read (a prefix of its own: keys are
	// origins, which a page URL can equal).
	CacheTTL    time.Duration
	Cache       []cache.Option
	RobotsCache []cache.Option
	Clock       clock.Clock
}

// FromEnv is c with the environment's settings applied (EnvAllowLoopback,
// EnvUserAgent).
func FromEnv(c Config) Config {
	c.AllowLoopback = c.AllowLoopback || env.Or(EnvAllowLoopback, "") == "1"
	c.UserAgent = env.Or(EnvUserAgent, c.UserAgent)
	return c
}

// Reader reads pages. Safe for concurrent use.
type Reader struct {
	cfg     Config
	client  *http.Client
	perHost ratelimit.Limiter
	pages   *cache.Cache[Page]
	robots  *cache.Cache[robotsFile]
	token   string // the user agent's product token
	dialer  *dialer
}

// New builds a Reader.
func New(cfg Config) *Reader {
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRedirects <= 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	if cfg.MaxText <= 0 {
		cfg.MaxText = DefaultMaxText
	}
	if cfg.PerHostRate <= 0 {
		cfg.PerHostRate = DefaultPerHostRate
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	d := newDialer(cfg.Resolver, cfg.AllowLoopback, cfg.Timeout)
	tr := &http.Transport{
		DialContext: d.DialContext, Proxy: nil, // a proxy would connect for us, past the check
		ForceAttemptHTTP2: true, MaxIdleConns: 16, IdleConnTimeout: 30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: cfg.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	r := &Reader{cfg: cfg, token: productToken(cfg.UserAgent), dialer: d}
	r.client = &http.Client{Transport: tr, CheckRedirect: r.checkRedirect}
	r.perHost = ratelimit.NewTokenBucket(cfg.PerHostRate, time.Second, defaultPerHostBurst, cfg.Limits...)
	if cfg.CacheTTL > 0 {
		r.pages = cache.New[Page](cfg.CacheTTL, append([]cache.Option{cache.WithStaleFor(cfg.CacheTTL), cache.WithMaxEntries(256), cache.WithClock(cfg.Clock)}, cfg.Cache...)...)
	}
	r.robots = cache.New[robotsFile](robotsTTL, append([]cache.Option{cache.WithStaleFor(robotsTTL), cache.WithMaxEntries(1024), cache.WithClock(cfg.Clock)}, cfg.RobotsCache...)...)
	return r
}

// UserAgent is the declared user agent.
func (r *Reader) UserAgent() string { return r.cfg.UserAgent }

// MaxBytes is the most of one page read.
func (r *Reader) MaxBytes() int64 { return r.cfg.MaxBytes }

// productToken is the name robots.txt groups are matched on
// ("mcpfleet-pagereader" of "mcpfleet-pagereader/1 (…)"; RFC 9309 §2.2.1).
func productToken(ua string) string {
	t, _, _ := strings.Cut(strings.TrimSpace(ua), "/")
	t, _, _ = strings.Cut(t, " ")
	return t
}

func (r *Reader) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > r.cfg.MaxRedirects {
		return envelope.New(envelope.UpstreamError, "the page redirected more than %d times (last to %s); open the final address directly if you know it", r.cfg.MaxRedirects, extract.Clip(req.URL.Redacted(), 200))
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return envelope.New(envelope.PermissionDenied, "the page redirected to a %s: address; only http and https pages are read", extract.Clip(req.URL.Scheme, 20))
	}
	if req.URL.User != nil {
		return envelope.New(envelope.PermissionDenied, "the page redirected to an address with credentials in it; it is not followed")
	}
	// robots.txt of the new host or path is checked before following.
	if err := r.allowed(req.Context(), req.URL); err != nil {
		return err
	}
	return r.polite(req.Context(), req.URL.Host)
}

// CheckURL parses raw into the absolute http(s) URL a read accepts.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil || u.Host == "":
		return nil, envelope.Invalid("url", "url must be an absolute http or https address such as https://example.com/page, got %q", extract.Clip(raw, 120))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, envelope.Invalid("url", "only http and https pages are read, not %s:", extract.Clip(u.Scheme, 20))
	case u.User != nil:
		return nil, envelope.Invalid("url", "url must not carry a user name or password")
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// Read reads the page at raw: from the cache when it was read within
// Config.CacheTTL (Page.Cached), else from the site.
func (r *Reader) Read(ctx context.Context, raw string) (Page, error) {
	return r.ReadAdmitted(ctx, raw, nil)
}

// ReadAdmitted is Read with admit called just before the page itself is
// requested: not for a cached page, nor for one refused before that (a
// refused address, robots.txt), so a caller's per-user limit is spent only
// on reads that reach the page. An error from admit is returned as is.
func (r *Reader) ReadAdmitted(ctx context.Context, raw string, admit func(context.Context) error) (Page, error) {
	u, err := CheckURL(raw)
	if err != nil {
		return Page{}, err
	}
	fetch := func(ctx context.Context) (Page, error) { return r.fetch(ctx, u, admit) }
	if r.pages == nil {
		return fetch(ctx)
	}
	p, meta, err := r.pages.Get(ctx, u.String(), fetch)
	if err != nil {
		return Page{}, err
	}
	p.Cached = meta.Hit
	return p, nil
}

// fetch reads u from the site within one deadline; admit (if any) is
// asked once robots.txt allows the page (reading robots.txt has checked
// the address too).
func (r *Reader) fetch(ctx context.Context, u *url.URL, admit func(context.Context) error) (Page, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	if err := r.allowed(ctx, u); err != nil {
		return Page{}, r.fail(ctx, u, err)
	}
	if r.cfg.IgnoreRobots {
		// Nothing has dialled yet: check the address before spending.
		if _, err := r.dialer.resolve(ctx, u.Hostname()); err != nil {
			return Page{}, r.fail(ctx, u, err)
		}
	}
	if admit != nil {
		if err := admit(ctx); err != nil {
			return Page{}, err
		}
	}
	if err := r.polite(ctx, u.Host); err != nil {
		return Page{}, r.fail(ctx, u, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, envelope.Invalid("url", "url cannot be requested: %s", extract.Clip(err.Error(), 120))
	}
	req.Header.Set("User-Agent", r.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,*/*;q=0.5")
	req.Header.Set("Accept-Language", "en;q=1, *;q=0.5")
	resp, err := r.client.Do(req)
	if err != nil {
		return Page{}, r.fail(ctx, u, err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if err := statusError(resp, final); err != nil {
		return Page{}, err
	}
	body, complete, err := readBounded(resp.Body, r.cfg.MaxBytes)
	if err != nil {
		return Page{}, r.fail(ctx, final, err)
	}
	if len(body) == 0 {
		// Nothing to read is not a page with no text: say so, never an empty success.
		return Page{}, envelope.New(envelope.UpstreamError, "%s answered %d with an empty body: there is nothing to read; try again later or another source",
			extract.Clip(final.Redacted(), 200), resp.StatusCode).WithRetryAfter(5 * time.Second).WithDetail("http_status", resp.StatusCode)
	}
	ctype := resp.Header.Get("Content-Type")
	p, err := extractPage(body, ctype, final, r.cfg.MaxText)
	if err != nil {
		return Page{}, err
	}
	p.Requested = u.String()
	p.FetchedAt = r.cfg.Clock.Now().UTC()
	p.BytesRead = int64(len(body))
	p.BodyCut = !complete
	if l, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64); err == nil && l > 0 {
		p.BodyBytes = l
	}
	return p, nil
}

// polite waits for the host's turn (Config.PerHostRate), within ctx.
func (r *Reader) polite(ctx context.Context, host string) error {
	err := ratelimit.Wait(ctx, r.perHost, strings.ToLower(host))
	var de *ratelimit.DeadlineError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &de):
		return envelope.New(envelope.RateLimited, "%s was asked too often just now (at most %d requests a second per site); try again in a moment", extract.Clip(host, 80), r.cfg.PerHostRate).
			WithRetryAfter(de.RetryAfter)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return envelope.New(envelope.UpstreamUnavailable, "the per-site request limit's store did not answer; nothing was sent, try again shortly").WithCause(err)
}

// readBounded reads at most limit bytes; complete is false when the body
// had more.
func readBounded(rd io.Reader, limit int64) (body []byte, complete bool, err error) {
	body, err = io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(body)) > limit {
		return body[:limit], false, nil
	}
	return body, true, nil
}

// statusError maps a site's refusal to an envelope error.
func statusError(resp *http.Response, u *url.URL) error {
	s := resp.StatusCode
	if s >= 200 && s < 300 {
		return nil
	}
	where := extract.Clip(u.Redacted(), 200)
	switch {
	case s == http.StatusNotFound || s == http.StatusGone:
		return envelope.New(envelope.NotFound, "%s answered %d: there is no page at this address; check the URL", where, s).WithDetail("http_status", s)
	case s == http.StatusUnauthorized || s == http.StatusForbidden || s == 451:
		return envelope.New(envelope.PermissionDenied, "%s answered %d: the site does not let this reader see the page (login, paywall, bot wall or region); it cannot be read here", where, s).WithDetail("http_status", s)
	case s == http.StatusTooManyRequests:
		e := envelope.New(envelope.RateLimited, "%s answered 429: the site asks for fewer requests; try again later", where).WithDetail("http_status", s)
		if d, ok := upstream.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok { // an HTTP date is compared with the real clock the site sent it by
			e = e.WithRetryAfter(d)
		}
		return e
	case s >= 500:
		return envelope.New(envelope.UpstreamUnavailable, "%s answered %d: the site failed; try again later", where, s).WithDetail("http_status", s)
	case s >= 300 && s < 400:
		return envelope.New(envelope.UpstreamError, "%s answered %d without a usable Location; open the address in a browser", where, s).WithDetail("http_status", s)
	}
	return envelope.New(envelope.UpstreamError, "%s answered %d", where, s).WithDetail("http_status", s)
}

// fail maps a transport error.
func (r *Reader) fail(ctx context.Context, u *url.URL, err error) error {
	var e *envelope.Error
	if errors.As(err, &e) {
		return e
	}
	host := extract.Clip(u.Host, 120)
	if ref, ok := asRefused(err); ok {
		return envelope.New(envelope.PermissionDenied, "%s is not read: %s; only public web addresses are", host, ref.Error()).
			WithDetail("refused_address", ref.Addr.String())
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return envelope.New(envelope.Timeout, "%s did not send the page within %s; the site is slow or hangs, try again later or another source", host, r.cfg.Timeout).WithCause(err)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return envelope.New(envelope.NotFound, "%s does not resolve (DNS: %s); check the host name", host, extract.Clip(dns.Err, 80)).WithCause(err)
	}
	return envelope.New(envelope.UpstreamUnavailable, "%s could not be reached (%s); try again later", host, extract.Clip(unwrapMsg(err), 120)).WithCause(err)
}

// unwrapMsg is the innermost message of a url.Error/net.OpError chain,
// without the URL (it may carry a query the caller did not mean to log).
func unwrapMsg(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	return err.Error()
}

// mediaType is a Content-Type's media type, lower-case ("" if none).
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}
