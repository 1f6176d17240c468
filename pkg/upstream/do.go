package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/metrics"
)

// Request is one call.
type Request struct {
	// Op names the operation in messages and logs ("get_operation_status").
	Op string
	// Route names the route for the drift watch (its shape) when Op carries
	// an id ("get status of op_1" → "get operation"); default Op.
	Route string
	// Method defaults to GET.
	Method string
	// Path is appended to the base URL (build it with upstream.Path when it holds
	// tool arguments: it escapes them and refuses "." and ".."); an
	// absolute URL is used as is.
	Path string
	// Query parameters; secret-looking names are redacted in logs.
	Query url.Values
	// Body, at most one of: JSON (marshalled once, sent as application/json), Form
	// (application/x-www-form-urlencoded), or RawBody with ContentType. Resty drops
	// bodies on GET, HEAD and OPTIONS.
	JSON        any
	Form        url.Values
	RawBody     []byte
	ContentType string
	// Headers for this request only; secret-looking names are never logged and their
	// values are scrubbed from messages.
	Headers map[string]string
	// Idempotent marks a write as safe to repeat (the upstream dedups it), so it is
	// retried like a GET. Never set it on an order placement without an idempotency key.
	Idempotent bool
	// Timeout overrides Config.Timeout for this call.
	Timeout time.Duration
	// NoDetect skips the detectors on 2xx bodies (images, non-JSON). Error statuses
	// are always run through the detectors.
	NoDetect bool
}

// Response is what the upstream answered. Do always returns a non-nil *Response:
// on error it holds the last status and body received (Status 0 and no body when
// none was, or when the body could not be read completely) and Attempts.
type Response struct {
	Status   int
	Header   http.Header
	Body     []byte
	Attempts int
}

// JSON decodes the body (helper for callers of Do).
func (r *Response) JSON(out any) error { return extract.Into(r.Body, out) }

// attemptResult is one attempt's outcome.
type attemptResult struct {
	status int
	header http.Header
	body   []byte
	err    error // transport or body error; nil when a full response was read
	sent   bool  // the request headers were written (it may have been processed)
	dur    time.Duration
}

// Do sends the request with the retry, deadline and mapping rules of the package
// doc, and returns the full response or an *envelope.Error.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	method := strings.ToUpper(strings.TrimSpace(req.Method))
	if method == "" {
		method = http.MethodGet
	}
	req.Method = method
	safe := req.Idempotent || method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
	extra := requestSecrets(req)

	if err := c.checkTarget(req); err != nil {
		return &Response{}, err
	}

	var body []byte
	contentType := req.ContentType
	switch {
	case req.JSON != nil:
		b, err := json.Marshal(req.JSON)
		if err != nil {
			return &Response{}, envelope.New(envelope.Internal, "%s: the request to %s could not be encoded", opName(req.Op), c.cfg.Name).WithCause(err)
		}
		body, contentType = b, "application/json"
	case req.Form != nil:
		body, contentType = []byte(req.Form.Encode()), "application/x-www-form-urlencoded"
	case req.RawBody != nil:
		body = req.RawBody
	}

	timeout := req.Timeout
	if timeout <= 0 {
		timeout = c.cfg.Timeout
	}
	parent := ctx
	if r := remaining(parent); r < timeout {
		timeout = max(r, 0) // the caller's deadline is the tighter one: report that budget
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out := &Response{}
	anySent := false
	op := c.metricOp(req)
	var last *envelope.Error // the previous attempt's real failure, if any
	for attempt := 1; ; attempt++ {
		out.Attempts = attempt
		if c.cfg.Limiter != nil {
			if err := c.cfg.Limiter(ctx); err != nil {
				return out, c.limiterError(ctx, parent, req, err, anySent && !safe, timeout, extra)
			}
		}
		actx, span := c.startSpan(ctx, method, op, attempt)
		res := c.attempt(actx, req, body, contentType)
		endSpan(span, res)
		anySent = anySent || res.sent
		c.logAttempt(req, res, attempt, extra)
		metrics.Upstream(c.cfg.Name, op, res.status, res.dur)

		var e *envelope.Error
		retryable := false
		var retryAfter time.Duration
		if res.err == nil {
			out.Status, out.Header, out.Body = res.status, res.header, res.body
			route := req.Route
			if route == "" {
				route = req.Op
			}
			c.watch().Observe(c.cfg.Logger, c.cfg.Name, route, res.status, res.header, res.body)
			e = c.statusError(req, res, safe, extra)
			if e == nil {
				return out, nil
			}
			retryable = safe && retryStatus(res.status) && (c.cfg.Final == nil || !c.cfg.Final(res.status, res.body))
			if ra, ok := retryAfterOf(res); ok {
				retryAfter = ra
				if ra > c.cfg.MaxRetryAfter || ra >= remaining(ctx) {
					return out, e.WithRetryAfter(ra)
				}
				e = e.WithRetryAfter(ra)
			}
		} else {
			out.Status, out.Header, out.Body = res.status, res.header, nil // never partial data
			if ctx.Err() != nil {
				if last != nil && !errors.Is(parent.Err(), context.Canceled) {
					// A retry ran out of time: the failure the user can act on is the
					// answer the upstream gave before, not the deadline of the retry.
					return out, last
				}
				return out, c.deadlineError(parent, req, anySent && !safe, timeout, res.err, extra)
			}
			var transportRetryable bool
			e, transportRetryable = c.transportError(req, res, safe, extra)
			// A write that provably never left may be repeated; anything else only if safe.
			retryable = transportRetryable && (safe || !res.sent)
		}

		if !retryable || attempt > c.cfg.Retries {
			return out, e
		}
		last = e
		wait := retryAfter
		if wait <= 0 {
			wait = backoff(c.cfg.RetryWait, c.cfg.RetryMaxWait, attempt)
		}
		if wait >= remaining(ctx) {
			return out, e // no time left for another attempt: report the real failure
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return out, e
		}
	}
}

// checkTarget refuses an absolute Path on another host than BaseURL: the client's
// headers (API keys) must not travel there.
func (c *Client) checkTarget(req Request) *envelope.Error {
	if c.cfg.BaseURL == "" {
		return nil
	}
	u, err := url.Parse(req.Path)
	if err == nil && !u.IsAbs() && u.Host == "" {
		return nil // relative: appended to BaseURL
	}
	base, berr := url.Parse(c.cfg.BaseURL)
	if err != nil || berr != nil || !strings.EqualFold(u.Host, base.Host) || !strings.EqualFold(u.Scheme, base.Scheme) {
		return envelope.New(envelope.Internal, "%s: refusing to send %s's request to another host than %s",
			opName(req.Op), c.cfg.Name, c.safeURL)
	}
	return nil
}

// attempt executes one HTTP exchange through resty.
func (c *Client) attempt(ctx context.Context, req Request, body []byte, contentType string) attemptResult {
	var sent atomic.Bool
	trace := &httptrace.ClientTrace{WroteHeaders: func() { sent.Store(true) }}
	r := c.rc.R().SetContext(httptrace.WithClientTrace(ctx, trace))
	if req.Query != nil {
		r.SetQueryParamsFromValues(req.Query)
	}
	if body != nil {
		r.SetBody(body)
	}
	if contentType != "" {
		r.SetHeader("Content-Type", contentType)
	}
	if req.JSON != nil || req.Method == http.MethodGet {
		r.SetHeader("Accept", "application/json, */*;q=0.5")
	}
	for k, v := range req.Headers {
		r.SetHeader(k, v)
	}
	start := time.Now()
	resp, err := r.Execute(req.Method, req.Path)
	res := attemptResult{err: err, sent: sent.Load(), dur: time.Since(start)}
	if resp != nil && resp.RawResponse != nil {
		res.status = resp.StatusCode()
		res.header = resp.Header()
		res.sent = true // an answer came back: it was sent
	}
	if err == nil && resp != nil {
		res.body = resp.Body()
	}
	return res
}

// statusError maps a complete response: detectors first, then the status.
//
// A write that is not safe to repeat and gets a bare 500, 502 or 504 (no error body
// a detector recognises: a crash, a proxy's page, a gateway timeout) may have been
// processed before the failure, so it is outcome_unknown rather than a retryable
// error that would invite a second order. 503 and 429 mean "rejected before
// processing" and keep their codes.
func (c *Client) statusError(req Request, res attemptResult, safe bool, extra []string) *envelope.Error {
	ok := res.status >= 200 && res.status <= 299
	if !ok || !req.NoDetect {
		if err := extract.Detect(res.status, res.body, c.cfg.Detectors...); err != nil {
			e := envelope.From(err)
			e.Message = c.scrub(c.prefix(req.Op)+e.Message, extra)
			if e.Cause != nil {
				e.Cause = scrubbedError{c.scrub(e.Cause.Error(), extra)}
			}
			if !ok {
				e = e.WithDetail("http_status", res.status)
			}
			return e
		}
	}
	if ok {
		return nil
	}
	if !safe && (res.status == 500 || res.status == 502 || res.status == 504) {
		return c.unknownOutcome(req, fmt.Sprintf("%s answered %d %s", c.cfg.Name, res.status, http.StatusText(res.status)), nil).
			WithDetail("http_status", res.status)
	}
	return extract.ErrorForStatus(res.status, c.statusMessage(req, res.status)).WithDetail("http_status", res.status)
}

func (c *Client) statusMessage(req Request, status int) string {
	what := fmt.Sprintf("%s answered %d %s to %s", c.cfg.Name, status, http.StatusText(status), opName(req.Op))
	switch {
	case status == 401:
		return what + "; check the credentials"
	case status == 403:
		return what + "; the credentials are not allowed to do this"
	case status == 404:
		return what + "; the thing asked for does not exist"
	case status == 409:
		return what + "; it is in the wrong state for this"
	case status == 400 || status == 422:
		return what + "; check the arguments"
	case status == 429:
		return what + "; slow down and try again later"
	case status == 502 || status == 503 || status == 504 || status == 408:
		return what + "; it is unavailable or overloaded, try again shortly"
	case status >= 500:
		return what + "; it failed internally, try again shortly"
	case status >= 300 && status < 400:
		return what + " (an unfollowed redirect); check the base URL" + c.urlHint()
	}
	return what
}

func (c *Client) urlHint() string {
	if c.cfg.URLEnv == "" {
		return ""
	}
	return " (set " + c.cfg.URLEnv + ")"
}

// transportError maps a failed exchange (no complete response) and says whether it
// is worth retrying.
func (c *Client) transportError(req Request, res attemptResult, safe bool, extra []string) (*envelope.Error, bool) {
	err := res.err
	cause := scrubbedError{c.scrub(innerError(err).Error(), extra)}
	var rd errRedirect
	switch {
	case errors.Is(err, resty.ErrResponseBodyTooLarge):
		return envelope.New(envelope.UpstreamError, "%s's answer to %s is larger than %d bytes; narrow the request",
			c.cfg.Name, opName(req.Op), c.cfg.MaxBodyBytes).WithCause(cause), false
	case errors.As(err, &rd) && rd.classified != nil:
		e := *rd.classified
		e.Message = c.scrub(e.Message, extra)
		return &e, false
	case errors.As(err, &rd):
		return envelope.New(envelope.UpstreamError, "%s answered %s with a %s; check the base URL%s",
			c.cfg.Name, opName(req.Op), rd.reason, c.urlHint()).WithCause(cause), false
	case !res.sent && isDialError(err):
		hint := "is it running?"
		if c.cfg.URLEnv != "" {
			hint += " set " + c.cfg.URLEnv
		}
		return envelope.New(envelope.UpstreamUnavailable, "cannot reach %s at %s; %s", c.cfg.Name, c.safeURL, hint).
			WithCause(cause), true
	}
	if !safe && res.sent {
		return c.unknownOutcome(req, "the connection failed before the answer was complete", cause), false
	}
	if res.status != 0 || errors.Is(err, io.ErrUnexpectedEOF) {
		return envelope.New(envelope.UpstreamError, "%s's answer to %s was cut off (truncated body); nothing partial was used, try again",
			c.cfg.Name, opName(req.Op)).WithRetryable(true).WithCause(cause), true
	}
	if isTLSError(err) {
		return envelope.New(envelope.UpstreamError, "cannot talk securely to %s at %s (TLS error); check the base URL%s",
			c.cfg.Name, c.safeURL, c.urlHint()).WithCause(cause), false
	}
	return envelope.New(envelope.UpstreamUnavailable, "the connection to %s failed during %s (%s); try again shortly",
		c.cfg.Name, opName(req.Op), connWord(err)).WithCause(cause), true
}

func (c *Client) unknownOutcome(req Request, why string, cause error) *envelope.Error {
	return envelope.New(envelope.OutcomeUnknown, "%s: %s; the request may have been processed by %s; check before repeating",
		opName(req.Op), why, c.cfg.Name).WithRetryable(false).WithCause(cause)
}

// deadlineError maps the end of the call's context.
func (c *Client) deadlineError(parent context.Context, req Request, ambiguousWrite bool, timeout time.Duration, err error, extra []string) *envelope.Error {
	cause := scrubbedError{c.scrub(innerError(err).Error(), extra)}
	cancelled := parent.Err() != nil && !errors.Is(parent.Err(), context.DeadlineExceeded)
	if ambiguousWrite {
		why := fmt.Sprintf("%s did not answer within %s", c.cfg.Name, timeout.Round(time.Millisecond))
		if cancelled {
			why = "the call was cancelled while waiting for " + c.cfg.Name
		}
		return c.unknownOutcome(req, why, cause)
	}
	if cancelled {
		return envelope.New(envelope.Timeout, "%s: the call was cancelled before %s answered", opName(req.Op), c.cfg.Name).
			WithRetryable(true).WithCause(cause)
	}
	return envelope.New(envelope.Timeout, "%s did not answer %s within %s; try again later or narrow the request",
		c.cfg.Name, opName(req.Op), timeout.Round(time.Millisecond)).WithCause(cause)
}

func (c *Client) limiterError(ctx, parent context.Context, req Request, err error, ambiguousWrite bool, timeout time.Duration, extra []string) *envelope.Error {
	var e *envelope.Error
	switch {
	case errors.As(err, &e):
		return e
	case ctx.Err() != nil:
		return c.deadlineError(parent, req, ambiguousWrite, timeout, err, extra)
	}
	return envelope.New(envelope.RateLimited, "%s: the client-side rate limit for %s was hit; try again shortly",
		opName(req.Op), c.cfg.Name).WithCause(scrubbedError{c.scrub(err.Error(), extra)})
}

func (c *Client) logAttempt(req Request, res attemptResult, attempt int, extra []string) {
	ev := c.cfg.Logger.Debug()
	if ev == nil {
		return
	}
	ev = ev.Str("upstream", c.cfg.Name).Str("op", req.Op).Str("method", req.Method).
		Str("path", redactPath(req.Path)).Int("attempt", attempt).Dur("duration", res.dur)
	if q := redactQuery(req.Query); q != "" {
		ev = ev.Str("query", q)
	}
	if res.status != 0 {
		ev = ev.Int("status", res.status)
	}
	if res.err != nil {
		ev = ev.Str("error", c.scrub(innerError(res.err).Error(), extra)).Bool("sent", res.sent)
	} else {
		ev = ev.Int("bytes", len(res.body))
	}
	ev.Msg("upstream attempt")
}

// retryStatus lists the statuses a safe request is retried on.
func retryStatus(s int) bool {
	switch s {
	case 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// retryAfterOf reads Retry-After on a 429 or 503 (seconds or an HTTP-date).
func retryAfterOf(res attemptResult) (time.Duration, bool) {
	if res.status != 429 && res.status != 503 {
		return 0, false
	}
	return ParseRetryAfter(res.header.Get("Retry-After"), time.Now())
}

// ParseRetryAfter parses a Retry-After value: delay-seconds (decimals tolerated) or
// an HTTP-date (RFC 9110 §10.2.3), relative to now. A date in the past is 0.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s != s {
			return 0, false
		}
		if s > 1e6 {
			s = 1e6
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// backoff is capped exponential backoff with "equal jitter": half the step fixed,
// half random, so retries spread out but never collapse to zero.
func backoff(base, max time.Duration, attempt int) time.Duration {
	step := base
	for i := 1; i < attempt && step < max; i++ {
		step *= 2
	}
	if step > max {
		step = max
	}
	half := step / 2
	if half <= 0 {
		return step
	}
	return half + rand.N(half+1)
}

func remaining(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return time.Duration(1<<63 - 1)
	}
	return time.Until(dl)
}

// metricOp is the op label of req's series: its route (Route, else Op)
// when a drift Shape is registered for it — route names are constants in
// the clients' code — else "other". An Op that carries an id or a model name
// ("get status of op_123") can so never become a series of its own: the
// label set is bounded by what the code registers, not by what is asked.
func (c *Client) metricOp(req Request) string {
	route := req.Route
	if route == "" {
		route = req.Op
	}
	if _, ok := c.watch().Shape(route); ok {
		return route
	}
	return metrics.OtherOp
}

func opName(op string) string {
	if op == "" {
		return "the request"
	}
	return op
}

// innerError drops *url.Error's wrapping (which embeds the full URL, query and all).
func innerError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// scrubbedError is a cause whose text was cleaned of secrets and URLs.
type scrubbedError struct{ msg string }

func (e scrubbedError) Error() string { return e.msg }

func isDialError(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

func isTLSError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "tls:") || strings.Contains(s, "x509:")
}

func connWord(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed early"
	case errors.Is(err, syscall.EPIPE):
		return "broken pipe"
	}
	return "connection error"
}
