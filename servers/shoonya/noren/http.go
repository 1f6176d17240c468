package noren

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
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// MaxBodyBytes caps a Noren answer (a full order book is far below this).
const MaxBodyBytes = 8 << 20

// request is one POST to a Noren route.
type request struct {
	op         string // route name, also the operation named in errors
	body       string // jData=...[&jKey=...]
	bearer     string // OAuth access token, "" in legacy
	idempotent bool   // safe to send again (reads); orders and logins are not
}

// transport sends requests. Reads are retried on connection errors, 429 and
// 5xx with jittered backoff inside the call's deadline; writes never are.
type transport struct {
	base    string // REST base URL ending in "/"
	rc      *resty.Client
	retries int
}

func newTransport(base string, hc *http.Client) *transport {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	rc := resty.New().SetRetryCount(0).SetResponseBodyLimit(MaxBodyBytes).SetDisableWarn(true)
	if hc != nil {
		rc = resty.NewWithClient(hc).SetRetryCount(0).SetResponseBodyLimit(MaxBodyBytes).SetDisableWarn(true)
	}
	rc.SetLogger(quietLogger{})
	return &transport{base: base, rc: rc, retries: 2}
}

// quietLogger drops resty's own log lines: they may carry URLs and bodies.
type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Debugf(string, ...any) {}

// do sends r and returns the body of a usable answer, or an envelope error.
func (t *transport) do(ctx context.Context, r request) ([]byte, error) {
	attempts := 1
	if r.idempotent {
		attempts += t.retries
	}
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			wait := backoff(i, last)
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				break
			}
			select {
			case <-ctx.Done():
				return nil, t.ctxErr(ctx, r, last)
			case <-time.After(wait):
			}
		}
		body, err, retry := t.once(ctx, r)
		if err == nil {
			return body, nil
		}
		last = err
		if !retry || ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

func backoff(attempt int, last error) time.Duration {
	var e *envelope.Error
	if errors.As(last, &e) && e.RetryAfter > 0 {
		return min(e.RetryAfter, 2*time.Second)
	}
	base := 100 * time.Millisecond << (attempt - 1)
	return base/2 + time.Duration(rand.Int64N(int64(base)))
}

func (t *transport) ctxErr(ctx context.Context, r request, last error) error {
	if last != nil {
		return last
	}
	return envelope.From(ctx.Err())
}

// once sends r one time. retry says whether sending again is both safe and useful.
func (t *transport) once(ctx context.Context, r request) (body []byte, err error, retry bool) {
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) }}
	req := t.rc.R().SetContext(httptrace.WithClientTrace(ctx, trace)).
		SetHeader("Content-Type", "text/plain").
		SetBody(r.body).
		SetDoNotParseResponse(true)
	if r.bearer != "" {
		req.SetHeader("Authorization", "Bearer "+r.bearer)
	}
	resp, err := req.Post(t.base + r.op)
	if err != nil {
		return nil, t.sendErr(ctx, r, err, wrote.Load()), r.idempotent
	}
	raw := resp.RawBody()
	defer raw.Close()
	body, rerr := io.ReadAll(io.LimitReader(raw, MaxBodyBytes+1))
	if rerr != nil {
		// The answer broke off: for a write, it may have been executed.
		return nil, t.readErr(ctx, r, rerr), r.idempotent
	}
	if len(body) > MaxBodyBytes {
		return nil, envelope.New(envelope.UpstreamError, "%s: Shoonya's answer is larger than %d bytes", r.op, MaxBodyBytes), false
	}
	status := resp.StatusCode()
	if status >= 200 && status < 300 {
		return body, nil, false
	}
	return nil, statusErr(r, status, resp.Header().Get("Retry-After"), body), r.idempotent && (status == 429 || status >= 500)
}

// sendErr classifies a failure before an answer arrived.
func (t *transport) sendErr(ctx context.Context, r request, err error, wrote bool) error {
	var op *net.OpError
	notSent := !wrote || (errors.As(err, &op) && op.Op == "dial")
	switch {
	case !r.idempotent && !notSent:
		return outcomeUnknown(r.op, err)
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return envelope.New(envelope.Timeout, "%s: Shoonya did not answer within the deadline; try again", r.op).WithCause(err)
	default:
		return envelope.New(envelope.UpstreamUnavailable, "%s: cannot reach Shoonya (%s); check the network or SHOONYA_REST_URL and try again", r.op, netReason(err)).WithCause(err)
	}
}

func (t *transport) readErr(ctx context.Context, r request, err error) error {
	if !r.idempotent {
		return outcomeUnknown(r.op, err)
	}
	if ctx.Err() != nil {
		return envelope.New(envelope.Timeout, "%s: Shoonya did not finish answering within the deadline; try again", r.op).WithCause(err)
	}
	return envelope.New(envelope.UpstreamError, "%s: Shoonya's answer broke off; try again", r.op).WithCause(err).WithRetryable(true)
}

// ErrOutcomeUnknown marks a write whose request left but whose answer did not arrive.
var ErrOutcomeUnknown = errors.New("noren: outcome unknown")

func outcomeUnknown(op string, err error) error {
	return envelope.New(envelope.OutcomeUnknown, "%s: the request was sent but Shoonya's answer was lost; check get_order_book before repeating", op).
		WithCause(fmt.Errorf("%w: %w", ErrOutcomeUnknown, err))
}

func netReason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) {
		if op.Op == "dial" {
			return "connection refused"
		}
		return "connection " + op.Op + " failed"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "connection closed"
	}
	return "network error"
}

// statusErr maps a non-2xx answer. A Noren error body wins over the status
// (403 carries "Session Expired"); otherwise the status decides.
func statusErr(r request, status int, retryAfterHdr string, body []byte) error {
	if firstByte(body) == '{' {
		var st Status
		if json.Unmarshal(body, &st) == nil && st.Emsg != "" && !st.OK() {
			e := EmsgError(r.op, st.Emsg)
			if status == 429 {
				e = envelope.New(envelope.RateLimited, "%s: Shoonya's rate limit (20 requests/s, 200/min) was hit; wait and try again", r.op)
			}
			if status >= 500 && e.Code == envelope.UpstreamError {
				e = e.WithRetryable(true)
			}
			return withRetryAfter(e, status, retryAfterHdr)
		}
	}
	var e *envelope.Error
	switch {
	case status == 429:
		e = envelope.New(envelope.RateLimited, "%s: Shoonya's rate limit (20 requests/s, 200/min) was hit; wait and try again", r.op)
	case status == 401 || status == 403:
		e = envelope.New(envelope.Unauthenticated, "%s: Shoonya refused the session (HTTP %d); call connect_shoonya_broker to log in again", r.op, status).WithCause(ErrSessionExpired)
	case status == 502 || status == 503 || status == 504:
		e = envelope.New(envelope.UpstreamUnavailable, "%s: Shoonya is unavailable (HTTP %d); try again shortly", r.op, status)
	case status >= 500:
		e = envelope.New(envelope.UpstreamError, "%s: Shoonya failed (HTTP %d); try again shortly", r.op, status).WithRetryable(true)
	case status == 404:
		e = envelope.New(envelope.UpstreamError, "%s: Shoonya has no such route (HTTP 404); check SHOONYA_REST_URL and SHOONYA_AUTH", r.op)
	default:
		e = envelope.New(envelope.UpstreamError, "%s: Shoonya answered HTTP %d", r.op, status)
	}
	if !r.idempotent && status >= 500 && status != 501 {
		// A 5xx after a write left: the order may exist. Never guess.
		e = envelope.New(envelope.OutcomeUnknown, "%s: Shoonya failed (HTTP %d) after the request was sent; check get_order_book before repeating", r.op, status).
			WithCause(ErrOutcomeUnknown)
	}
	return withRetryAfter(e, status, retryAfterHdr)
}

func withRetryAfter(e *envelope.Error, status int, hdr string) *envelope.Error {
	if status != 429 {
		return e
	}
	d := time.Second
	if s, err := strconv.Atoi(strings.TrimSpace(hdr)); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	}
	return e.WithRetryAfter(d)
}
