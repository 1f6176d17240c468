// Package envelope is the one result and error shape every mcpfleet tool returns.
//
// Handlers return typed Go errors (*Error, or anything wrapping one); Result maps
// them to an MCP tool result with isError:true and a structured body
// {code, message, retryable, retry_after_s?, details?}. No Go error ever leaves a
// handler as a JSON-RPC protocol error, because the model never sees those.
package envelope

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Code is the closed set of error codes a tool may return.
type Code string

const (
	InvalidArgument     Code = "invalid_argument"     // the caller's input is wrong; fix the arguments
	Unauthenticated     Code = "unauthenticated"      // no or expired login; reconnect or set credentials
	PermissionDenied    Code = "permission_denied"    // a policy (read-only, pre-trade limit, plan) refuses it
	NotFound            Code = "not_found"            // the named thing does not exist
	Conflict            Code = "conflict"             // the thing exists but is in the wrong state
	RateLimited         Code = "rate_limited"         // a limit (ours or upstream) was hit; see retry_after_s
	UpstreamUnavailable Code = "upstream_unavailable" // the upstream cannot be reached or is overloaded
	UpstreamError       Code = "upstream_error"       // the upstream answered with an error or an unreadable body
	Timeout             Code = "timeout"              // the deadline passed
	OutcomeUnknown      Code = "outcome_unknown"      // a write may or may not have happened; check before repeating
	Internal            Code = "internal"             // a bug on our side
)

// Codes lists every code, for documentation and schema enums.
var Codes = []Code{InvalidArgument, Unauthenticated, PermissionDenied, NotFound, Conflict,
	RateLimited, UpstreamUnavailable, UpstreamError, Timeout, OutcomeUnknown, Internal}

// defaultRetryable says whether a code is worth retrying when the creator did not say.
func (c Code) defaultRetryable() bool {
	switch c {
	case RateLimited, UpstreamUnavailable, Timeout:
		return true
	}
	return false
}

// Error is the typed error handlers return. Message is shown to the model and must
// name the fix; Cause is logged but never shown (it may hold upstream detail).
type Error struct {
	Code       Code
	Message    string
	Retryable  bool
	RetryAfter time.Duration
	Details    map[string]any
	Cause      error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return string(e.Code) + ": " + e.Message + ": " + e.Cause.Error()
	}
	return string(e.Code) + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// New makes an error with the code's default retryability.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Retryable: code.defaultRetryable()}
}

// Invalid is New(InvalidArgument, ...) with the offending field recorded in details.
func Invalid(field, format string, args ...any) *Error {
	e := New(InvalidArgument, format, args...)
	if field != "" {
		e.Details = map[string]any{"field": field}
	}
	return e
}

// WithRetryAfter marks the error retryable after d.
func (e *Error) WithRetryAfter(d time.Duration) *Error {
	e.Retryable = true
	e.RetryAfter = d
	return e
}

// WithRetryable overrides the code's default retryability.
func (e *Error) WithRetryable(r bool) *Error { e.Retryable = r; return e }

// WithDetail adds one key to details.
func (e *Error) WithDetail(key string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = v
	return e
}

// WithCause records the underlying error for logs only.
func (e *Error) WithCause(err error) *Error { e.Cause = err; return e }

// From turns any error into an *Error: an *Error anywhere in the chain is used as
// is; context deadline and cancellation become timeout; everything else is
// internal with a generic message (the cause goes to logs, not to the model).
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return New(Timeout, "the call ran past its deadline; try again, or narrow the request").WithCause(err)
	case errors.Is(err, context.Canceled):
		return New(Timeout, "the call was cancelled before it finished").WithRetryable(true).WithCause(err)
	}
	return New(Internal, "internal error; the server log has details").WithCause(err)
}

// Body is the wire form of an error: the structured content of an isError result.
type Body struct {
	Code        Code           `json:"code"`
	Message     string         `json:"message"`
	Retryable   bool           `json:"retryable"`
	RetryAfterS *float64       `json:"retry_after_s,omitempty"`
	Details     map[string]any `json:"details,omitempty"`
}

// Body returns the wire form, rounding retry-after up to whole milliseconds.
func (e *Error) Body() Body {
	b := Body{Code: e.Code, Message: e.Message, Retryable: e.Retryable, Details: e.Details}
	if e.RetryAfter > 0 {
		s := math.Ceil(e.RetryAfter.Seconds()*1000) / 1000
		b.RetryAfterS = &s
	}
	return b
}
