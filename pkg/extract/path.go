package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// PathString renders a path for messages: keys joined by ".", or "the top level".
func PathString(path []string) string {
	if len(path) == 0 {
		return "the top level"
	}
	return strings.Join(path, ".")
}

// At returns the raw JSON value at path. A missing key or null (at the end or on the
// way) gives (nil, nil). Malformed JSON or a non-object on the way is an error.
func At(body []byte, path ...string) (json.RawMessage, error) {
	cur := trimmed(body)
	if len(cur) == 0 {
		return nil, envelope.New(envelope.UpstreamError, "the upstream's answer is empty (expected JSON)")
	}
	// An object on a path is checked whole by its decode below; anything
	// else is checked here.
	if (len(path) == 0 || cur[0] != '{') && !json.Valid(cur) {
		return nil, malformed(cur)
	}
	for i, key := range path {
		if isNull(cur) {
			return nil, nil
		}
		if cur[0] != '{' {
			return nil, wrongType(path[:i], "an object", cur)
		}
		// encoding/json's own map decode: the last of repeated keys wins and
		// escaped keys compare unescaped; keys match exactly (a struct decode
		// would also take another case).
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(cur, &obj); err != nil {
			return nil, malformed(cur)
		}
		next, ok := obj[key]
		if !ok {
			return nil, nil
		}
		cur = trimmed(next)
	}
	if isNull(cur) {
		return nil, nil
	}
	return json.RawMessage(cur), nil
}

// List decodes the array at path into []T. Missing or null gives an empty non-nil
// slice; anything but an array there, or an element that does not decode into T, is
// an upstream_error naming the path.
func List[T any](body []byte, path ...string) ([]T, error) {
	raw, err := At(body, path...)
	if err != nil {
		return []T{}, err
	}
	return decodeList[T](raw, path)
}

// Object decodes the value at path into T. Missing or null gives the zero T; a value
// that does not decode into T is an upstream_error naming the path.
func Object[T any](body []byte, path ...string) (T, error) {
	var zero T
	raw, err := At(body, path...)
	if err != nil || raw == nil {
		return zero, err
	}
	return decodeValue[T](raw, path)
}

// ListIn is List over an already-decoded JSON object (as produced by
// json.Unmarshal into map[string]any).
func ListIn[T any](m map[string]any, path ...string) ([]T, error) {
	raw, err := atIn(m, path)
	if err != nil {
		return []T{}, err
	}
	return decodeList[T](raw, path)
}

// ObjectIn is Object over an already-decoded JSON object.
func ObjectIn[T any](m map[string]any, path ...string) (T, error) {
	var zero T
	raw, err := atIn(m, path)
	if err != nil || raw == nil {
		return zero, err
	}
	return decodeValue[T](raw, path)
}

// Require decodes the value at path into T and insists it is there: missing, null
// or "" is an upstream_error "<op>: the backend's answer has no <field>", with the
// path in details.field. Use it for the one field a tool cannot do without.
func Require[T any](body []byte, op string, path ...string) (T, error) {
	var zero T
	field := PathString(path)
	raw, err := At(body, path...)
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) {
			e.Message = prefixOp(op, e.Message)
		}
		return zero, err
	}
	if raw == nil || string(raw) == `""` {
		return zero, envelope.New(envelope.UpstreamError, "%s", prefixOp(op, "the backend's answer has no "+field)).
			WithDetail("field", field)
	}
	v, err := decodeValue[T](raw, path)
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) {
			e.Message = prefixOp(op, e.Message)
		}
		return zero, err
	}
	return v, nil
}

func prefixOp(op, msg string) string {
	if op == "" {
		return msg
	}
	return op + ": " + msg
}

func atIn(m map[string]any, path []string) (json.RawMessage, error) {
	var cur any = m
	for i, key := range path {
		if cur == nil {
			return nil, nil
		}
		obj, ok := cur.(map[string]any)
		if !ok {
			b, _ := json.Marshal(cur)
			return nil, wrongType(path[:i], "an object", b)
		}
		if obj == nil {
			return nil, nil
		}
		next, ok := obj[key]
		if !ok {
			return nil, nil
		}
		cur = next
	}
	if cur == nil {
		return nil, nil
	}
	b, err := json.Marshal(cur)
	if err != nil {
		return nil, envelope.New(envelope.UpstreamError, "the value at %s cannot be re-encoded", PathString(path)).WithCause(err)
	}
	return b, nil
}

func decodeList[T any](raw json.RawMessage, path []string) ([]T, error) {
	if raw == nil {
		return []T{}, nil
	}
	if raw[0] != '[' {
		return []T{}, wrongType(path, "a list", raw)
	}
	out := []T{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return []T{}, decodeError(path, err)
	}
	return out, nil
}

func decodeValue[T any](raw json.RawMessage, path []string) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		var zero T
		return zero, decodeError(path, err)
	}
	return v, nil
}

func isNull(b []byte) bool { return len(b) == 0 || string(b) == "null" }

// kind names the JSON type of a valid value by its first byte.
func kind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func malformed(body []byte) *envelope.Error {
	var x any
	err := json.Unmarshal(body, &x)
	msg := "the upstream's answer is not valid JSON"
	if len(body) > 0 && body[0] == '<' {
		msg = "the upstream answered with HTML instead of JSON (an error page or a proxy?)"
	}
	e := envelope.New(envelope.UpstreamError, "%s", msg)
	if err != nil {
		e = e.WithCause(err)
	}
	return e
}

func wrongType(path []string, want string, got []byte) *envelope.Error {
	return envelope.New(envelope.UpstreamError, "unexpected answer from the upstream: %s should be %s but is %s",
		PathString(path), want, kind(got)).WithDetail("field", PathString(path))
}

// decodeError explains a json decoding failure with the path and, for type
// mismatches, the offending field; never with the value itself.
func decodeError(path []string, err error) *envelope.Error {
	var te *json.UnmarshalTypeError
	var ee *envelope.Error
	switch {
	case errors.As(err, &ee):
		// A helper type (Num, StringList, ...) already explained itself; add the path.
		out := *ee
		out.Message = fmt.Sprintf("unexpected answer from the upstream at %s: %s", PathString(path), ee.Message)
		return out.WithDetail("field", PathString(path))
	case errors.As(err, &te):
		field := PathString(path)
		if te.Field != "" {
			if len(path) == 0 {
				field = te.Field
			} else {
				field += "." + te.Field
			}
		}
		return envelope.New(envelope.UpstreamError, "unexpected answer from the upstream: %s is a JSON %s where %s was expected",
			field, te.Value, goTypeName(te.Type)).WithDetail("field", field).WithCause(err)
	}
	return envelope.New(envelope.UpstreamError, "unexpected answer from the upstream at %s: %s",
		PathString(path), Clip(err.Error(), MaxUpstreamText)).WithDetail("field", PathString(path)).WithCause(err)
}

// goTypeName turns a Go type into words the model understands.
func goTypeName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}

// Into decodes the whole value at path into out (a pointer), with the same errors
// as Object: missing or null leaves out untouched, malformed JSON or a wrong type is
// an upstream_error naming the path.
func Into(body []byte, out any, path ...string) error {
	raw, err := At(body, path...)
	if err != nil || raw == nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return decodeError(path, err)
	}
	return nil
}
