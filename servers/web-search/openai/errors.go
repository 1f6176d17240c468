package openai

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/option"

	"github.com/mcpfleet/mcpfleet/pkg/drift"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// apiError reads the {"error":{message,type,param,code}} body of a non-2xx
// answer (openai-go internal/apierror/apierror.go); ok is false for anything else (an HTML page, nothing).
func apiError(body []byte) (msg, typ, param, code string, ok bool) {
	var e APIError
	if json.Unmarshal(body, &e) != nil || (e.Error.Message == "" && e.Error.Type == "" && e.Error.Code == nil) {
		return "", "", "", "", false
	}
	if e.Error.Param != nil {
		param = *e.Error.Param
	}
	if e.Error.Code != nil {
		code = *e.Error.Code
	}
	return e.Error.Message, e.Error.Type, param, code, true
}

// detect maps OpenAI's error bodies (help.openai.com/en/articles/6891839-api-
// error-code-guidance; testdata/contract) to envelope errors whose
// messages name the fix. Upstream text is clipped and, for 401, never echoed:
// OpenAI's message repeats part of the key.
func (c *Client) detect(status int, body []byte) *envelope.Error {
	msg, typ, param, code, ok := apiError(body)
	if !ok {
		// Not OpenAI's error object: a proxy's or load balancer's page.
		e := extract.ErrorForStatus(status, "OpenAI answered "+strconv.Itoa(status)+" without its error object (a proxy or load balancer page); try again shortly, and check "+EnvBaseURL+" if it persists")
		if status == http.StatusNotFound {
			e.Message = "OpenAI answered 404 without its error object; check " + EnvBaseURL + " (it must end in /v1) and " + EnvModel
		}
		return e.WithDetail("http_status", status)
	}
	said := extract.Clip(msg, 200)
	var e *envelope.Error
	switch {
	case status == http.StatusUnauthorized:
		e = envelope.New(envelope.Unauthenticated, "OpenAI rejected the API key (%s); set %s to a valid key from platform.openai.com/api-keys", orWord(code, "401"), EnvAPIKey)
	case code == "insufficient_quota" || typ == "insufficient_quota":
		e = envelope.New(envelope.PermissionDenied, "the OpenAI account behind %s has no quota left (insufficient_quota); add credit or raise the budget at platform.openai.com/account/billing — retrying will not help", EnvAPIKey).
			WithRetryable(false)
	case status == http.StatusTooManyRequests:
		e = envelope.New(envelope.RateLimited, "OpenAI's rate limit for this key was reached (%s): %s; wait and try again, or raise the key's limits", orWord(typ, "rate_limit_exceeded"), said)
	case status == http.StatusNotFound && code == "model_not_found":
		// A shut-down model answers this (deprecations page): retrying is
		// useless, the setting must change.
		e = envelope.New(envelope.NotFound, "OpenAI no longer serves or never had model %s for this key (model_not_found): %s; %s and restart the server",
			extract.Clip(c.cfg.Model, 60), said, moveTo(c.cfg.Model)).WithRetryable(false).WithDetail("replacement", replacementDetail(c.cfg.Model))
	case status == http.StatusNotFound:
		e = envelope.New(envelope.NotFound, "OpenAI does not know the model or route (%s): %s; set %s to a model this key can use (e.g. %s) and check %s", orWord(code, "not_found"), said, EnvModel, DefaultModel, EnvBaseURL).WithRetryable(false)
	case status == http.StatusForbidden:
		e = envelope.New(envelope.PermissionDenied, "OpenAI refused the request (%s): %s; the key's project or region is not allowed to use this model or tool", orWord(code, "forbidden"), said)
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		e = envelope.New(envelope.InvalidArgument, "OpenAI rejected the request (%s%s): %s; %s", orWord(code, typ), paramNote(param), said, c.badRequestFix(param, msg))
		if param != "" {
			e = e.WithDetail("param", extract.Clip(param, 80))
		}
	case status == http.StatusRequestTimeout || status == http.StatusConflict:
		e = envelope.New(envelope.UpstreamUnavailable, "OpenAI answered %d (%s); try again shortly", status, said)
	case status == http.StatusInternalServerError:
		e = envelope.New(envelope.UpstreamError, "OpenAI failed internally (%s): %s; try again shortly", orWord(code, "server_error"), said).WithRetryable(true)
	case status >= 500:
		e = envelope.New(envelope.UpstreamUnavailable, "OpenAI is unavailable or overloaded (%d): %s; try again shortly", status, said)
	default:
		e = extract.ErrorForStatus(status, "OpenAI answered "+strconv.Itoa(status)+": "+said)
	}
	e = e.WithDetail("http_status", status)
	if code != "" {
		e = e.WithDetail("openai_code", extract.Clip(code, 60))
	}
	return e
}

// moveTo says which setting to change to what when model is gone.
func moveTo(model string) string {
	if r := ReplacementFor(model); r != "" && r != model {
		return "set " + EnvModel + "=" + r + " (OpenAI's recommended replacement)"
	}
	return "OpenAI's deprecations table names no replacement for " + model + ": set " + EnvModel + " to a current model with web_search (e.g. " + DefaultModel + ")"
}

// replacementDetail is details.replacement: the published replacement or
// "none published".
func replacementDetail(model string) string { return orWord(ReplacementFor(model), "none published") }

func orWord(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func paramNote(p string) string {
	if p == "" {
		return ""
	}
	return ", param " + extract.Clip(p, 80)
}

// badRequestFix says which setting or argument a 400 points at.
func (c *Client) badRequestFix(param, msg string) string {
	switch {
	case strings.Contains(msg, "reasoning.effort"):
		// 400 param "tools": "The following tools cannot be used with
		// reasoning.effort 'minimal': web_search." (openai/codex#3559)
		return "set " + EnvEffort + " to low (" + c.cfg.Model + " takes " + strings.Join(acceptedEfforts(c.cfg.Model), ", ") + "; web_search does not work with minimal)"
	case strings.Contains(param, "filters"), strings.Contains(param, "allowed_domains"):
		return "check allowedDomains (bare host names, at most 100)"
	case strings.Contains(param, "user_location"):
		return "check region (an ISO 3166 alpha-2 country code)"
	case strings.Contains(param, "reasoning"):
		return "set " + EnvEffort + " to one of " + strings.Join(acceptedEfforts(c.cfg.Model), ", ") + ", or empty for models without reasoning"
	case param == "model":
		return "set " + EnvModel + " to a Responses model with web_search"
	case strings.Contains(param, "max_output_tokens"), strings.Contains(param, "max_tool_calls"):
		return "check " + EnvMaxOutputTokens + " and " + EnvMaxToolCalls
	}
	return "check " + EnvModel + " and the server's web-search settings"
}

// retryable says whether an answer may be sent again (openai-go
// internal/requestconfig/requestconfig.go, minus insufficient_quota): only
// 429 rate_limit_exceeded (never insufficient_quota), 408, 409 and 5xx, and
// what the server marks with x-should-retry (openai-go honours it too).
func retryable(status int, h http.Header, body []byte) bool {
	switch strings.ToLower(h.Get("x-should-retry")) {
	case "true":
		return true
	case "false":
		return false
	}
	switch {
	case status == http.StatusTooManyRequests:
		_, typ, _, code, ok := apiError(body)
		if !ok {
			return true
		}
		return code != "insufficient_quota" && typ != "insufficient_quota"
	case status == http.StatusRequestTimeout, status == http.StatusConflict, status >= 500:
		return true
	}
	return false
}

// serverWait is how long the answer asks us to wait: retry-after-ms, then
// retry-after (seconds or HTTP-date), then, on a 429, the x-ratelimit-reset-*
// duration of the limit that ran out (Go-style "1s", "6m0s";
// platform.openai.com/docs/guides/rate-limits).
func serverWait(status int, h http.Header, body []byte, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if d, ok := upstream.ParseRetryAfter(h.Get("retry-after"), now); ok {
		return d, true
	}
	if status != http.StatusTooManyRequests {
		return 0, false
	}
	_, typ, _, _, _ := apiError(body)
	order := []string{"requests", "tokens"}
	if typ == "tokens" {
		order = []string{"tokens", "requests"}
	}
	for _, kind := range order {
		if strings.TrimSpace(h.Get("x-ratelimit-remaining-"+kind)) != "0" && typ != kind {
			continue
		}
		if d, err := time.ParseDuration(strings.TrimSpace(h.Get("x-ratelimit-reset-" + kind))); err == nil && d >= 0 {
			return d, true
		}
	}
	return 0, false
}

// watch is the SDK middleware of every request: it keeps the last error
// answer for the error message (the SDK's own error keeps only its code),
// lets the drift watch see it, and decides the retry the SDK then makes:
// x-should-retry says whether (never insufficient_quota, which the SDK
// would retry), retry-after-ms how long (the server's wait, or our
// backoff), and a wait past the deadline is no retry, so the call ends
// with the real failure instead of a timeout.
func (c *Client) watch(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	began := time.Now()
	res, err := next(req)
	st, _ := req.Context().Value(callKey{}).(*callState)
	route := "search"
	if req.Method == http.MethodGet {
		route = "model"
	}
	if res != nil {
		c.cfg.Logger.Debug().Str("upstream", "OpenAI").Str("op", route).Int("status", res.StatusCode).Dur("took", time.Since(began)).Msg("upstream attempt")
	} else {
		c.cfg.Logger.Debug().Str("upstream", "OpenAI").Str("op", route).Str("error", extract.Clip(fmtErr(err), 160)).Dur("took", time.Since(began)).Msg("upstream attempt")
	}
	if st == nil {
		return res, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.attempts++
	if err != nil || res == nil {
		st.connErr = err
		return res, err
	}
	if res.StatusCode < 400 {
		st.okHdr = res.Header.Clone()
		st.status = res.StatusCode
		return res, nil
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	_ = res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	st.status, st.header, st.body = res.StatusCode, res.Header.Clone(), body
	drift.Default().Observe(c.cfg.Logger, "OpenAI", route, res.StatusCode, res.Header, body)
	again := retryable(res.StatusCode, res.Header, body)
	wait, told := serverWait(res.StatusCode, res.Header, body, time.Now())
	if !told {
		wait = backoff(c.cfg.RetryWait, st.attempts)
	}
	if dl, ok := req.Context().Deadline(); ok && time.Now().Add(wait).After(dl) {
		again = false // the wait would pass the deadline: report the real failure
	}
	if again && st.attempts < c.cfg.MaxAttempts {
		c.cfg.Logger.Debug().Int("attempt", st.attempts).Int("status", res.StatusCode).Dur("wait", wait).Msg("OpenAI: retrying")
	}
	res.Header.Set("x-should-retry", strconv.FormatBool(again))
	res.Header.Set("retry-after-ms", strconv.FormatInt(max(wait.Milliseconds(), 1), 10))
	res.Header.Del("retry-after")
	return res, nil
}

// httpError is the envelope error of the last error answer the middleware
// kept, with the server's retry advice on a 429.
func (c *Client) httpError(st *callState) *envelope.Error {
	st.mu.Lock()
	status, h, body := st.status, http.Header(st.header), st.body
	st.mu.Unlock()
	e := c.detect(status, body)
	if wait, told := serverWait(status, h, body, time.Now()); told && e.Code == envelope.RateLimited {
		e = e.WithRetryAfter(wait)
	}
	if v := strings.ToLower(h.Get("x-should-retry")); v == "false" && e.Retryable && e.Code != envelope.RateLimited {
		e = e.WithRetryable(false)
	}
	return e
}

// backoff is exponential with equal jitter: 0.5 s, 1 s, 2 s … halves fixed.
func backoff(base time.Duration, attempt int) time.Duration {
	step := base << (attempt - 1)
	if step > 4*time.Second || step <= 0 {
		step = 4 * time.Second
	}
	half := step / 2
	return half + rand.N(half+1)
}

func fmtErr(err error) string {
	if err == nil {
		return "no answer"
	}
	return err.Error()
}
