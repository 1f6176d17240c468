package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// MaxUpstreamText is how many runes of upstream-supplied text (an error message)
// may reach a message; longer text is clipped with "…".
const MaxUpstreamText = 300

// Detector inspects a response's status and body and returns the upstream's error
// in envelope form, or nil when the body is not an error of its shape. A detector
// must accept any bytes without panicking, must not put whole bodies or secrets in
// messages, and runs on 2xx bodies too (errors inside 200s).
type Detector func(status int, body []byte) *envelope.Error

// Detect runs the detectors in order and returns the first error found, or nil.
// A panicking detector (a bug) is reported as upstream_error, never re-panicked.
func Detect(status int, body []byte, ds ...Detector) (err error) {
	for _, d := range ds {
		if d == nil {
			continue
		}
		if e := safeRun(d, status, body); e != nil {
			return e
		}
	}
	return nil
}

func safeRun(d Detector, status int, body []byte) (e *envelope.Error) {
	defer func() {
		if r := recover(); r != nil {
			e = envelope.New(envelope.UpstreamError, "the upstream's answer could not be read").
				WithCause(fmt.Errorf("detector panic: %v", r))
		}
	}()
	return d(status, body)
}

// ErrorForStatus maps an HTTP status to the envelope code and retryability every
// bridge uses, with msg as the message:
// 400/422 invalid_argument, 401 unauthenticated, 403 permission_denied,
// 404/410 not_found, 409 conflict, 429 rate_limited, 408/502/503/504
// upstream_unavailable (retryable), other 5xx upstream_error (retryable), anything
// else (including an error inside a 2xx) upstream_error.
func ErrorForStatus(status int, msg string) *envelope.Error {
	code, retry := StatusCode(status)
	return envelope.New(code, "%s", msg).WithRetryable(retry)
}

// StatusCode is the code and retryability ErrorForStatus uses.
func StatusCode(status int) (envelope.Code, bool) {
	switch status {
	case 400, 422:
		return envelope.InvalidArgument, false
	case 401:
		return envelope.Unauthenticated, false
	case 403:
		return envelope.PermissionDenied, false
	case 404, 410:
		return envelope.NotFound, false
	case 409:
		return envelope.Conflict, false
	case 429:
		return envelope.RateLimited, true
	case 408, 502, 503, 504:
		return envelope.UpstreamUnavailable, true
	}
	if status >= 500 && status <= 599 {
		return envelope.UpstreamError, true
	}
	return envelope.UpstreamError, false
}

// Clip makes upstream text safe for a message: control characters become spaces,
// runs of spaces collapse, and the result is cut to at most n runes (plus "…").
func Clip(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "�")
	}
	var b strings.Builder
	count := 0
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			if space {
				continue
			}
			r, space = ' ', true
		} else {
			space = false
		}
		if count == n {
			return strings.TrimSpace(b.String()) + "…"
		}
		b.WriteRune(r)
		count++
	}
	return strings.TrimSpace(b.String())
}

// Cut shortens s to at most n runes (plus "…"), keeping its text as it is
// (newlines too): for a message a reader reads whole, such as a traceback.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// object decodes body as a JSON object, or returns nil when it is not one.
func object(body []byte) map[string]json.RawMessage {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// str reads a JSON string value; ok is false for anything else.
func str(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// text reads a human message out of a value: a string, or an object's
// message/msg/error/detail/description field, or the compact JSON of a small value.
func text(raw json.RawMessage) string { return textDepth(raw, 3) }

func textDepth(raw json.RawMessage, depth int) string {
	raw = bytes.TrimSpace(raw)
	if s, ok := str(raw); ok {
		return s
	}
	if m := object(raw); m != nil && depth > 0 {
		for _, k := range []string{"message", "msg", "error", "detail", "error_description", "description"} {
			if v, ok := m[k]; ok {
				if s := textDepth(v, depth-1); s != "" {
					return s
				}
			}
		}
	}
	if isNull(raw) {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return ""
	}
	return buf.String()
}

func is2xx(status int) bool { return status >= 200 && status <= 299 }
