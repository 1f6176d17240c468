package drift

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// JSON types a Field may have.
const (
	String = "string"
	Number = "number"
	Bool   = "boolean"
	Object = "object"
	Array  = "array"
	Null   = "null"
)

// Field is one thing a client reads from an answer.
type Field struct {
	// Path is dotted; "[]" after a key (or alone at the start) means every
	// element of that array: "output[].type", "[].id".
	Path string
	// Types are the JSON types accepted; empty accepts any.
	Types []string
	// Optional fields may be absent (or null); the rest must be present.
	Optional bool
	// Enum lists the string values the client knows; another value is drift.
	Enum []string
}

// Req is a required field of the given types.
func Req(path string, types ...string) Field { return Field{Path: path, Types: types} }

// Opt is an optional field of the given types.
func Opt(path string, types ...string) Field { return Field{Path: path, Types: types, Optional: true} }

// OneOf restricts a string field to known values.
func (f Field) OneOf(values ...string) Field { f.Enum = values; return f }

// Shape is what a client depends on in one route's answers.
type Shape struct {
	// Route names the route; it is the Op of the upstream.Request that calls it.
	Route string
	// Fields of a successful (2xx) answer.
	Fields []Field
	// Error is the shape of an error answer (non-2xx); nil: not checked.
	Error []Field
	// Text marks a non-JSON answer (RSS, images): only headers are watched,
	// unless Check is set.
	Text bool
	// Check, if set, replaces the JSON field check (an XML feed's elements).
	Check func(body []byte) []Finding `json:"-"`
	// ErrorCheck, if set, replaces the JSON error check (an upstream whose
	// errors are HTML pages).
	ErrorCheck func(body []byte) []Finding `json:"-"`
}

// Finding kinds.
const (
	Missing    = "missing_field"  // a required field is absent
	Retyped    = "retyped_field"  // a field has another JSON type
	NewEnum    = "unknown_enum"   // a value outside the known ones
	ErrorBody  = "new_error_body" // an error answer in an unknown shape
	Malformed  = "malformed"      // the body is not JSON at all
	Deprecated = "deprecated"     // Deprecation, Sunset, Warning 299, a shutdown date
)

// Finding is one difference between an answer and its Shape.
type Finding struct {
	Kind   string `json:"kind"`
	Path   string `json:"path,omitempty"`
	Detail string `json:"detail"`
}

// String renders a finding for a log or a table.
func (f Finding) String() string {
	if f.Path == "" {
		return f.Kind + ": " + f.Detail
	}
	return f.Kind + " " + f.Path + ": " + f.Detail
}

// CheckBody checks a 2xx answer against the shape.
func (s Shape) CheckBody(body []byte) []Finding {
	if s.Check != nil {
		return s.Check(body)
	}
	if s.Text {
		return nil
	}
	return checkFields(body, s.Fields, Malformed)
}

// CheckError checks an error answer (non-2xx) against the error shape: any
// difference is one ErrorBody finding (the upstream answers errors in a way
// the client does not read).
func (s Shape) CheckError(body []byte) []Finding {
	if s.ErrorCheck != nil {
		return s.ErrorCheck(body)
	}
	if s.Error == nil {
		return nil
	}
	fs := checkFields(body, s.Error, ErrorBody)
	if len(fs) == 0 {
		return nil
	}
	detail := fs[0].Detail
	if fs[0].Path != "" {
		detail = fs[0].Path + ": " + detail
	}
	return []Finding{{Kind: ErrorBody, Detail: "the error answer is not in the known shape (" + detail + ")"}}
}

func checkFields(body []byte, fields []Field, malformedKind string) []Finding {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return []Finding{{Kind: malformedKind, Detail: "the answer is not JSON"}}
	}
	var out []Finding
	for _, f := range fields {
		out = append(out, checkField(doc, f)...)
	}
	return out
}

func checkField(doc any, f Field) []Finding {
	vals, missing, wrong := walk([]node{{doc, ""}}, splitPath(f.Path))
	var out []Finding
	if wrong != "" {
		return append(out, Finding{Kind: Retyped, Path: f.Path, Detail: wrong})
	}
	if missing != "" && !f.Optional {
		out = append(out, Finding{Kind: Missing, Path: f.Path, Detail: "absent (at " + missing + ")"})
	}
	for _, v := range vals {
		t := typeOf(v.v)
		if t == Null && f.Optional {
			continue
		}
		if len(f.Types) > 0 && !slices.Contains(f.Types, t) {
			out = append(out, Finding{Kind: Retyped, Path: f.Path, Detail: fmt.Sprintf("%s is %s, want %s", orTop(v.at), t, strings.Join(f.Types, " or "))})
			break
		}
		if s, ok := v.v.(string); ok && len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			out = append(out, Finding{Kind: NewEnum, Path: f.Path, Detail: fmt.Sprintf("%s is %q, not one of %s", orTop(v.at), clip(s, 40), strings.Join(f.Enum, ", "))})
			break
		}
	}
	return out
}

type node struct {
	v  any
	at string
}

// splitPath turns "a.b[].c" into ["a","b","[]","c"].
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.Split(p, ".") {
		var arrays int
		for strings.HasSuffix(part, "[]") {
			part = strings.TrimSuffix(part, "[]")
			arrays++
		}
		if part != "" {
			out = append(out, part)
		}
		for range arrays {
			out = append(out, "[]")
		}
	}
	return out
}

// walk follows steps from the nodes. missing is the first place a step found
// nothing (absent key, or null on the way); wrong says where a container had
// another type than the path needs. An empty array ends the walk quietly:
// there is no element to check.
func walk(cur []node, steps []string) (vals []node, missing, wrong string) {
	for _, step := range steps {
		var next []node
		for _, n := range cur {
			if n.v == nil && step == "[]" {
				continue // a null list holds no element (declare the list itself to require it)
			}
			if n.v == nil {
				if missing == "" {
					missing = orTop(n.at)
				}
				continue
			}
			if step == "[]" {
				arr, ok := n.v.([]any)
				if !ok {
					return nil, "", fmt.Sprintf("%s is %s, want array", orTop(n.at), typeOf(n.v))
				}
				for i, e := range arr {
					next = append(next, node{e, fmt.Sprintf("%s[%d]", n.at, i)})
				}
				continue
			}
			obj, ok := n.v.(map[string]any)
			if !ok {
				return nil, "", fmt.Sprintf("%s is %s, want object", orTop(n.at), typeOf(n.v))
			}
			at := step
			if n.at != "" {
				at = n.at + "." + step
			}
			v, ok := obj[step]
			if !ok {
				if missing == "" {
					missing = at
				}
				continue
			}
			next = append(next, node{v, at})
		}
		cur = next
	}
	return cur, missing, ""
}

func orTop(at string) string {
	if at == "" {
		return "the top level"
	}
	return at
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return Null
	case string:
		return String
	case json.Number, float64:
		return Number
	case bool:
		return Bool
	case map[string]any:
		return Object
	case []any:
		return Array
	}
	return "unknown"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
