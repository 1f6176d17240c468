package noren

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
// object {"stat":"Not_Ok","emsg":...} on failure. Only Noren's "no data"
// answer (`Error Occurred : 5 "no data"`, the ShoonyaApi-py README's
// PositionBook and GetQuotes samples; `No Data :  ` for SearchScrip) is an
// empty list: every other Not_Ok is an error carrying the broker's text in
// details.broker_message (the README's Holdings failure sample `Invalid Input
// : Missing uid or actid or prd.`; `Invalid Input : jData is not valid json
// object`, seen live by marketcalls/openalgo broker/shoonya/api/data.py). A
// refused read is never "nothing there": the order-book read is also
// place_order's check for an earlier order with the same key.
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
					// Each element carries its own stat; a refused row
					// is a refused read, not a row to drop.
					return nil, refusal(op, st.Emsg)
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
		err := refusal(op, st.Emsg)
		if IsNoData(err) {
			return []T{}, nil
		}
		return nil, err
	default:
		return nil, unreadable(op, fmt.Errorf("want a JSON array or object, got %q", extract.Clip(string(body), 40)))
	}
}

// refusal is the error of a Not_Ok answer; one without any emsg is still a
// refusal (upstream_error), never an empty answer.
func refusal(op, emsg string) *envelope.Error {
	if strings.TrimSpace(emsg) == "" {
		return envelope.New(envelope.UpstreamError, "%s: Shoonya answered Not_Ok without a reason; try again, and report it if it persists", op).
			WithRetryable(true).WithDetail("broker_message", "")
	}
	return EmsgError(op, emsg)
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
