package noren

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// unreadable is the error for a body that is not the JSON Noren promised.
func unreadable(op string, err error) *envelope.Error {
	return envelope.New(envelope.UpstreamError, "%s: Shoonya sent an unreadable answer; try again, and report it if it persists", op).
		WithRetryable(true).WithCause(fmt.Errorf("%w: %w", ErrUnreadable, err))
}

// ErrUnreadable marks a body that is not the JSON Noren promised.
var ErrUnreadable = errors.New("noren: unreadable answer")

func firstByte(body []byte) byte {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// DecodeObject decodes an object endpoint's answer into dst after checking
// stat. A Not_Ok answer becomes an envelope error (see EmsgError).
func DecodeObject(op string, body []byte, dst any) error {
	if firstByte(body) != '{' {
		return unreadable(op, fmt.Errorf("want a JSON object, got %q", extract.Clip(string(body), 40)))
	}
	var st Status
	if err := json.Unmarshal(body, &st); err != nil {
		return unreadable(op, err)
	}
	if !st.OK() {
		if st.Emsg == "" && st.Stat == "" {
			return unreadable(op, fmt.Errorf("object without stat"))
		}
		return EmsgError(op, st.Emsg)
	}
	if dst == nil {
		return nil
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return unreadable(op, err)
	}
	return nil
}

// DecodeList decodes a list endpoint's answer: a JSON array on success, an
// object {"stat":"Not_Ok","emsg":...} on failure. Noren's "no data" answer (an
// empty book) and any other Not_Ok that is not a failed read (see
// listReadFailed) is an empty list, not an error. Elements with stat Not_Ok are
// skipped (each element carries its own stat).
func DecodeList[T any](op string, body []byte) ([]T, error) {
	switch firstByte(body) {
	case '[':
		var raw []json.RawMessage
		if err := json.Unmarshal(body, &raw); err != nil {
			return nil, unreadable(op, err)
		}
		out := make([]T, 0, len(raw))
		for _, r := range raw {
			var st Status
			if firstByte(r) == '{' {
				if err := json.Unmarshal(r, &st); err != nil {
					return nil, unreadable(op, err)
				}
				if st.Stat != "" && !st.OK() {
					continue
				}
			}
			var v T
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, unreadable(op, err)
			}
			out = append(out, v)
		}
		return out, nil
	case '{':
		var st Status
		if err := json.Unmarshal(body, &st); err != nil {
			return nil, unreadable(op, err)
		}
		if st.OK() {
			// Some list endpoints wrap results: {"stat":"Ok","values":[...]}.
			var w struct {
				Values []T `json:"values"`
			}
			if err := json.Unmarshal(body, &w); err != nil {
				return nil, unreadable(op, err)
			}
			if w.Values == nil {
				w.Values = []T{}
			}
			return w.Values, nil
		}
		// The official SDK treats every non-array answer to a list read as
		// "nothing" (NorenApi.py send_payload: expected_return_type 'list' and
		// type(res) != list → None), and the emsg of an empty
		// OrderBook/TradeBook/Holdings is not public. So
		// any Not_Ok is an empty list, except answers that say the read itself
		// failed: session/auth, rate limit and server timeout stay errors, so a
		// caller checking the order book for an earlier order never mistakes
		// "could not look" for "nothing there".
		err := EmsgError(op, st.Emsg)
		if listReadFailed(err) {
			return nil, err
		}
		return []T{}, nil
	default:
		return nil, unreadable(op, fmt.Errorf("want a JSON array or object, got %q", extract.Clip(string(body), 40)))
	}
}

// listReadFailed reports whether a Not_Ok answer to a list read means the
// read failed rather than "no rows".
func listReadFailed(err *envelope.Error) bool {
	switch err.Code {
	case envelope.Unauthenticated, envelope.PermissionDenied, envelope.RateLimited, envelope.UpstreamUnavailable:
		return true
	}
	return false
}

// DecodeJSONStrings decodes EODChartData's answer: an array whose elements
// are JSON documents sent as strings. Elements that are already objects are
// accepted too.
func DecodeJSONStrings[T any](op string, body []byte) ([]T, error) {
	if firstByte(body) != '[' {
		return DecodeList[T](op, body)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, unreadable(op, err)
	}
	out := make([]T, 0, len(raw))
	for i, r := range raw {
		doc := []byte(r)
		if firstByte(r) == '"' {
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				return nil, unreadable(op, err)
			}
			doc = []byte(s)
		}
		var v T
		if err := json.Unmarshal(doc, &v); err != nil {
			return nil, unreadable(op, fmt.Errorf("element %d: %w", i, err))
		}
		out = append(out, v)
	}
	return out, nil
}
