package upstream

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultTimeout       = 15 * time.Second
	DefaultRetries       = 2
	DefaultRetryWait     = 200 * time.Millisecond
	DefaultRetryMaxWait  = 2 * time.Second
	DefaultMaxRetryAfter = 5 * time.Second
	DefaultMaxBodyBytes  = 8 << 20
)

// Config describes one upstream.
type Config struct {
	// Name is the upstream's name in messages and logs ("ktrdr", "chart-img").
	Name string
	// BaseURL is prefixed to every Request.Path ("http://127.0.0.1:8000/api/v1").
	BaseURL string
	// URLEnv names the setting that holds BaseURL ("KTRDR_API_URL"); "cannot reach"
	// messages tell the user to set it.
	URLEnv string
	// Timeout is the whole-call deadline (all attempts and the body); default 15s.
	Timeout time.Duration
	// Retries is the number of retries after the first attempt; default 2; set a
	// negative value for none.
	Retries int
	// RetryWait and RetryMaxWait bound the jittered exponential backoff (defaults
	// 200ms and 2s).
	RetryWait, RetryMaxWait time.Duration
	// MaxRetryAfter caps an honoured Retry-After; a longer one (or one past the
	// deadline) ends the call with rate_limited and that retry-after. Default 5s.
	MaxRetryAfter time.Duration
	// MaxBodyBytes caps the response body; default 8 MiB.
	MaxBodyBytes int64
	// Headers are sent with every request.
	Headers map[string]string
	// SecretHeaders are sent with every request but never logged, and their values
	// are scrubbed from messages (API keys, bearer tokens).
	SecretHeaders map[string]string
	// Detectors find the upstream's errors in bodies (extract.FastAPI, ...).
	Detectors []extract.Detector
	// Logger receives one debug line per attempt. The zero Logger discards.
	Logger zerolog.Logger
	// UserAgent is sent as User-Agent; default "mcpfleet-<name>".
	UserAgent string
	// Limiter, if set, is called before every attempt and may block (a client-side
	// rate limit); an error from it ends the call (rate_limited unless it is an
	// *envelope.Error or the context's error).
	Limiter func(ctx context.Context) error
	// Transport replaces the HTTP transport (tests, custom TLS); default a fresh
	// http.Transport without a cookie jar.
	Transport http.RoundTripper
	// CrossHostRedirect, if set, classifies a redirect to another host, which
	// is never followed: it gets the redirect response (status and headers,
	// e.g. Retry-After; no body) and its target, and may return the error the
	// call ends with (an upstream that throttles by redirecting to a block
	// page on another host). nil keeps the generic refusal ("check the base
	// URL"). The call is not retried either way.
	CrossHostRedirect func(resp *http.Response, to *url.URL) *envelope.Error
	// Final, if set, sees every complete error answer whose status is normally
	// retried (429, 5xx); true ends the call with it at once. It is for answers
	// the upstream means as final although their status says "try again": a
	// daily quota used up, where a retry only spends time until the quota's reset.
	Final func(status int, body []byte) bool
	// Drift watches every answer (deprecation headers; bodies against the
	// shapes registered for each Op); nil is the process's drift.Default().
	Drift *drift.Watch
}

// Client calls one upstream. It is safe for concurrent use.
type Client struct {
	cfg     Config
	rc      *resty.Client
	secrets []string // values of secret headers, scrubbed from messages
	safeURL string   // BaseURL without credentials and query, for messages
}

// New builds a Client, applying defaults to zero fields.
func New(cfg Config) *Client {
	if cfg.Name == "" {
		cfg.Name = "the upstream"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = DefaultRetries
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.RetryWait <= 0 {
		cfg.RetryWait = DefaultRetryWait
	}
	if cfg.RetryMaxWait <= 0 {
		cfg.RetryMaxWait = DefaultRetryMaxWait
	}
	if cfg.RetryMaxWait < cfg.RetryWait {
		cfg.RetryMaxWait = cfg.RetryWait
	}
	if cfg.MaxRetryAfter <= 0 {
		cfg.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "mcpfleet-" + strings.ReplaceAll(cfg.Name, " ", "-")
	}
	tr := cfg.Transport
	if tr == nil {
		tr = newTransport()
	}
	c := &Client{cfg: cfg, safeURL: redactURL(cfg.BaseURL)}
	for k, v := range cfg.SecretHeaders {
		c.secrets = appendSecret(c.secrets, v)
		_ = k
	}
	for k, v := range cfg.Headers {
		if secretName(k) {
			c.secrets = appendSecret(c.secrets, v)
		}
	}
	hc := &http.Client{Transport: tr} // no cookie jar: the client is shared by all users
	c.rc = resty.NewWithClient(hc).
		SetBaseURL(strings.TrimRight(cfg.BaseURL, "/")).
		SetRetryCount(0). // this package owns the retry loop (see the package doc)
		SetResponseBodyLimit(bodyLimit(cfg.MaxBodyBytes)).
		SetRedirectPolicy(sameHostRedirects(5, cfg.CrossHostRedirect)).
		SetLogger(restyLogger{c}).
		SetDisableWarn(true).
		SetHeader("User-Agent", cfg.UserAgent)
	for k, v := range cfg.Headers {
		c.rc.SetHeader(k, v)
	}
	for k, v := range cfg.SecretHeaders {
		c.rc.SetHeader(k, v)
	}
	return c
}

// Name is the upstream's name.
func (c *Client) Name() string { return c.cfg.Name }

// BaseURL is the configured base URL.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

func newTransport() *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

func bodyLimit(n int64) int {
	const maxInt = int(^uint(0) >> 1)
	if n > int64(maxInt) {
		return maxInt
	}
	return int(n)
}

// errRedirect marks a refused redirect; classified, when set, is what
// Config.CrossHostRedirect made of it.
type errRedirect struct {
	reason     string
	classified *envelope.Error
}

func (e errRedirect) Error() string { return e.reason }

func sameHostRedirects(max int, classify func(*http.Response, *url.URL) *envelope.Error) resty.RedirectPolicy {
	return resty.RedirectPolicyFunc(func(req *http.Request, via []*http.Request) error {
		if len(via) >= max {
			return errRedirect{reason: "too many redirects"}
		}
		if len(via) > 0 && req.URL.Host != via[0].URL.Host {
			// Headers (keys!) would follow the request to another host.
			rd := errRedirect{reason: "redirect to another host refused"}
			if classify != nil && req.Response != nil {
				rd.classified = classify(req.Response, req.URL)
			}
			return rd
		}
		return nil
	})
}

// GetJSON GETs path with query and decodes the JSON answer into out (if not nil).
// Malformed or wrongly shaped JSON is an upstream_error.
func (c *Client) GetJSON(ctx context.Context, op, path string, query url.Values, out any) error {
	resp, err := c.Do(ctx, Request{Op: op, Method: http.MethodGet, Path: path, Query: query})
	if err != nil {
		return err
	}
	return c.decode(op, resp, out)
}

// PostJSON POSTs in as JSON and decodes the JSON answer into out (if not nil). The
// POST is not idempotent: it is never retried once sent (use Do with Idempotent for
// writes that are safe to repeat).
func (c *Client) PostJSON(ctx context.Context, op, path string, in, out any) error {
	resp, err := c.Do(ctx, Request{Op: op, Method: http.MethodPost, Path: path, JSON: in})
	if err != nil {
		return err
	}
	return c.decode(op, resp, out)
}

// Decode decodes the body of a response Do returned into out, with this client's
// messages (malformed JSON or a wrong shape → upstream_error naming the upstream
// and op). A 204/205 answer decodes to nothing; any other empty body is an error.
func (c *Client) Decode(op string, resp *Response, out any) error { return c.decode(op, resp, out) }

func (c *Client) decode(op string, resp *Response, out any) error {
	if out == nil || resp == nil || resp.Status == http.StatusNoContent || resp.Status == http.StatusResetContent {
		return nil
	}
	body := resp.Body
	if raw, ok := out.(*[]byte); ok {
		*raw = body
		return nil
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = append((*raw)[:0], body...)
		return nil
	}
	if err := extract.Into(body, out); err != nil {
		if e, ok := err.(*envelope.Error); ok {
			e.Message = c.prefix(op) + e.Message
			e.Message = c.scrub(e.Message, nil)
		}
		return err
	}
	return nil
}

// prefix is "<name> <op>: " for messages about upstream-supplied content.
func (c *Client) prefix(op string) string {
	if op == "" {
		return c.cfg.Name + ": "
	}
	return c.cfg.Name + " " + op + ": "
}

// CloseIdleConnections closes kept-alive connections (shutdown, tests).
func (c *Client) CloseIdleConnections() { c.rc.GetClient().CloseIdleConnections() }
