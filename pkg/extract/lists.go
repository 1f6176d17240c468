package extract

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// JSONStrings decodes an array whose elements are JSON documents sent as strings,
// like Noren's EODChartData ["{\"time\":\"21-SEP-2022\",...}", ...]. Elements that are
// already JSON values are accepted as is; null elements are skipped; null decodes to
// an empty list. It marshals as a plain JSON array of T.
type JSONStrings[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (l *JSONStrings[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if isNull(b) {
		*l = JSONStrings[T]{}
		return nil
	}
	var items []json.RawMessage
	if b[0] != '[' || json.Unmarshal(b, &items) != nil {
		return envelope.New(envelope.UpstreamError, "expected a list of JSON documents, got %s", kind(b))
	}
	out := make(JSONStrings[T], 0, len(items))
	for i, it := range items {
		it = bytes.TrimSpace(it)
		if isNull(it) {
			continue
		}
		if it[0] == '"' {
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return envelope.New(envelope.UpstreamError, "item %d is not a valid string", i).WithCause(err)
			}
			if s == "" {
				continue
			}
			it = []byte(s)
		}
		var v T
		if err := json.Unmarshal(it, &v); err != nil {
			return envelope.New(envelope.UpstreamError, "item %d is not a JSON document of the expected shape", i).WithCause(err)
		}
		out = append(out, v)
	}
	*l = out
	return nil
}

// MarshalJSON implements json.Marshaler (a nil list is []).
func (l JSONStrings[T]) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]T(l))
}

// StringList decodes a JSON array of strings sent inside a string, like Polymarket's
// "outcomes": "[\"Yes\",\"No\"]", and also a real array. Numbers and booleans in the
// array keep their literal text ("[0.5, 1]" → ["0.5","1"]); null and "" decode to an
// empty list. It marshals as a plain JSON array.
type StringList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if isNull(b) {
		*l = StringList{}
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return envelope.New(envelope.UpstreamError, "expected a list, got an invalid string").WithCause(err)
		}
		b = bytes.TrimSpace([]byte(s))
		if isNull(b) {
			*l = StringList{}
			return nil
		}
	}
	var items []json.RawMessage
	if b[0] != '[' || json.Unmarshal(b, &items) != nil {
		return envelope.New(envelope.UpstreamError, "expected a list (or a list inside a string), got %s", kindOrText(b))
	}
	out := make(StringList, 0, len(items))
	for i, it := range items {
		it = bytes.TrimSpace(it)
		switch {
		case isNull(it):
			out = append(out, "")
		case it[0] == '"':
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return envelope.New(envelope.UpstreamError, "item %d is not a valid string", i).WithCause(err)
			}
			out = append(out, s)
		case it[0] == '{' || it[0] == '[':
			return envelope.New(envelope.UpstreamError, "item %d should be a string but is %s", i, kind(it))
		default: // number or boolean: keep the literal text
			out = append(out, string(it))
		}
	}
	*l = out
	return nil
}

// MarshalJSON implements json.Marshaler (a nil list is []).
func (l StringList) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]string(l))
}

func kindOrText(b []byte) string {
	if json.Valid(b) {
		return kind(b)
	}
	return "the text " + strconv.Quote(Clip(string(b), 40))
}
