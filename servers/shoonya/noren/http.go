package noren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// request is one POST to a Noren route.
type request struct {
	op         string // route name, also the operation named in errors
	body       string // jData=...[&jKey=...]
	bearer     string // OAuth access token, "" in legacy
	idempotent bool   // safe to send again (reads); orders and logins are not
}

// transport sends Noren requests through pkg/upstream: one deadline per call,
// reads retried on connection errors, 429 and 5xx, writes never retried once
// sent (a dial error excepted), lost write answers → outcome_unknown.
type transport struct {
	up *upstream.Client
}

func newTransport(base string, hc *http.Client, log zerolog.Logger) *transport {
	cfg := upstream.Config{Name: "Shoonya", BaseURL: base, URLEnv: "SHOONYA_REST_URL", Retries: 2, Logger: log}
	if hc != nil && hc.Transport != nil {
		cfg.Transport = hc.Transport
	}
	return &transport{up: upstream.New(cfg)}
}

// do sends r and returns the body of a 2xx answer, or an envelope error.
// Noren's own error bodies win over the HTTP status (a 403 may carry
// "Session Expired"), and keep their sentinel causes.
func (t *transport) do(ctx context.Context, r request, timeout time.Duration) ([]byte, error) {
	var hdr map[string]string
	if r.bearer != "" {
		hdr = map[string]string{"Authorization": "Bearer " + r.bearer}
	}
	resp, err := t.up.Do(ctx, upstream.Request{
		Op: r.op, Method: http.MethodPost, Path: "/" + r.op,
		// Noren reads the body as text: no official client sets a form or JSON type.
		RawBody: []byte(r.body), ContentType: "text/plain",
		Headers: hdr, Idempotent: r.idempotent, NoDetect: true, Timeout: timeout,
	})
	if err == nil {
		return resp.Body, nil
	}
	if e := norenBodyError(r.op, resp); e != nil {
		return nil, e
	}
	e := envelope.From(err)
	if r.op == "QuickAuth" && resp != nil && resp.Status == http.StatusBadGateway {
		return nil, LegacyGone()
	}
	if !r.idempotent && resp != nil && resp.Status >= 500 && e.Code != envelope.OutcomeUnknown {
		// A 5xx after a write reached a server (a gateway timeout may follow an
		// accepted order): never guess, let the caller check the order book.
		return nil, envelope.New(envelope.OutcomeUnknown, "%s: Shoonya failed (HTTP %d) after the request was sent; check get_order_book before repeating", r.op, resp.Status).
			WithCause(ErrOutcomeUnknown)
	}
	if e.Code == envelope.Unauthenticated || (resp != nil && resp.Status == http.StatusForbidden) {
		// Noren's live docs: 403 = session expired.
		return nil, envelope.New(envelope.Unauthenticated, "%s: Shoonya refused the session; call connect_shoonya_broker to log in again", r.op).WithCause(ErrSessionExpired)
	}
	return nil, err
}

// norenBodyError reads a Noren {"stat":"Not_Ok","emsg":...} from a non-2xx answer.
func norenBodyError(op string, resp *upstream.Response) error {
	if resp == nil || firstByte(resp.Body) != '{' {
		return nil
	}
	var st Status
	if json.Unmarshal(resp.Body, &st) != nil || st.Emsg == "" || st.OK() {
		return nil
	}
	if resp.Status == http.StatusTooManyRequests {
		return envelope.New(envelope.RateLimited, "%s: Shoonya's rate limit (20 requests/s, 200/min) was hit; wait and try again", op).WithRetryAfter(time.Second)
	}
	e := EmsgError(op, st.Emsg)
	if resp.Status >= 500 && e.Code == envelope.UpstreamError {
		e = e.WithRetryable(true)
	}
	return e
}

// ErrOutcomeUnknown marks a write whose request left but whose answer did not arrive.
var ErrOutcomeUnknown = errors.New("noren: outcome unknown")

// IsOutcomeUnknown reports whether a write may or may not have happened.
func IsOutcomeUnknown(err error) bool {
	return err != nil && (errors.Is(err, ErrOutcomeUnknown) || envelope.From(err).Code == envelope.OutcomeUnknown)
}

func outcomeUnknown(op string, err error) error {
	return envelope.New(envelope.OutcomeUnknown, "%s: the request was sent but Shoonya's answer was lost; check get_order_book before repeating", op).
		WithCause(fmt.Errorf("%w: %w", ErrOutcomeUnknown, err))
}

// LegacyGone is the answer to QuickAuth's 502: since 2026-04-01 the legacy
// login path answers 502 Bad Gateway to everyone (ShoonyaApi-py#218, #219;
// marketcalls/openalgo broker/shoonya), so trying again can never work.
func LegacyGone() *envelope.Error {
	return envelope.New(envelope.Unauthenticated,
		"QuickAuth: Shoonya's legacy login (/NorenWClientTP/) answers 502 since 2026-04-01: that path is gone, and trying again will not help. "+
			"Use the OAuth login: unset SHOONYA_AUTH (oauth is the default) or set it to oauth, set SHOONYA_CLIENT_ID and SHOONYA_CLIENT_SECRET, "+
			"register this machine's static IP on trade.shoonya.com, then call connect_shoonya_broker and open its authorize_url").
		WithRetryable(false).WithDetail("http_status", http.StatusBadGateway)
}
