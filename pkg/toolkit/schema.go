package toolkit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaFor derives a JSON schema from T (a struct). Descriptions come from the
// `jsonschema:"..."` tag; constraints from the `mcp:"..."` tag, a ';'-separated
// list of:
//
//	enum=a|b|c  min=N  max=N  minLength=N  maxLength=N  minItems=N  maxItems=N
//	pattern=RE  format=F  default=JSON-or-text  type=string|number (for `any` fields)
//
// Fields without omitempty are required. Results pass through fillNils, so a nil
// slice or map is sent as [] or {} and output schemas need no null type.
func SchemaFor[T any](output bool) (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{})
	if err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("schema root of %s must be an object, is %q", t, s.Type)
	}
	if err := applyTags(t, s, output); err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	typeUntyped(s)
	if output {
		leanOutput(s)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return unescapeHTML(b), nil
}

// MustSchema is SchemaFor for package-level tool definitions: a bad tag is a
// programming error caught by the first test that builds the tool.
func MustSchema[T any](output bool) json.RawMessage {
	b, err := SchemaFor[T](output)
	if err != nil {
		panic(err)
	}
	return b
}

func applyTags(t reflect.Type, s *jsonschema.Schema, output bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if s.Items != nil {
			return applyTags(t.Elem(), s.Items, output)
		}
		return nil
	case reflect.Map:
		if s.AdditionalProperties != nil {
			return applyTags(t.Elem(), s.AdditionalProperties, output)
		}
		return nil
	case reflect.Struct:
	default:
		return nil
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Tag.Get("json") == "" {
			if err := applyTags(f.Type, s, output); err != nil {
				return err
			}
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ps := s.Properties[name]
		if ps == nil {
			continue
		}
		if err := applyFieldTag(f, ps); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if len(ps.Types) == 2 && ps.Types[0] == "null" {
			// jsonschema-go marks omitempty slices nullable; an absent list is
			// simply absent and a present one is [], so advertise the plain type.
			ps.Type, ps.Types = ps.Types[1], nil
		}
		if err := applyTags(f.Type, ps, output); err != nil {
			return err
		}
	}
	return nil
}

func applyFieldTag(f reflect.StructField, s *jsonschema.Schema) error {
	tag := f.Tag.Get("mcp")
	if tag == "" {
		return nil
	}
	target := s
	// Constraints on a slice field apply to its items, except the array's own.
	if f.Type.Kind() == reflect.Slice && s.Items != nil {
		target = s.Items
	}
	for _, part := range strings.Split(tag, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Errorf("mcp tag %q: want key=value", part)
		}
		var err error
		switch k {
		case "enum":
			target.Enum = nil
			for _, e := range strings.Split(v, "|") {
				target.Enum = append(target.Enum, typed(target, e))
			}
		case "min":
			target.Minimum, err = num(v)
		case "max":
			target.Maximum, err = num(v)
		case "minLength":
			target.MinLength, err = integer(v)
		case "maxLength":
			target.MaxLength, err = integer(v)
		case "minItems":
			s.MinItems, err = integer(v)
		case "maxItems":
			s.MaxItems, err = integer(v)
		case "pattern":
			target.Pattern = v
		case "format":
			target.Format = v
		case "type":
			setTypes(target, strings.Split(v, "|"))
		case "default":
			if json.Valid([]byte(v)) && (s.Type != "string" || strings.HasPrefix(v, `"`)) {
				s.Default = json.RawMessage(v)
			} else {
				b, _ := json.Marshal(v)
				s.Default = b
			}
		default:
			return fmt.Errorf("mcp tag: unknown key %q", k)
		}
		if err != nil {
			return fmt.Errorf("mcp tag %q: %w", part, err)
		}
	}
	return nil
}

// typed turns an enum literal into the schema's type so integer enums stay integers.
func typed(s *jsonschema.Schema, v string) any {
	if s.Type == "integer" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	}
	if s.Type == "number" {
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	}
	return v
}

func num(v string) (*float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	return &f, err
}

func integer(v string) (*int, error) {
	n, err := strconv.Atoi(v)
	return &n, err
}

// setTypes narrows an untyped (interface) field: one type, or anyOf several.
func setTypes(s *jsonschema.Schema, types []string) {
	if len(types) == 1 {
		*s = *typedSchema(types[0], s.Description)
		return
	}
	desc := s.Description
	*s = jsonschema.Schema{Description: desc}
	for _, t := range types {
		s.AnyOf = append(s.AnyOf, typedSchema(t, ""))
	}
}

func typedSchema(t, desc string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: t, Description: desc}
	if t == "array" {
		s.Items = anyScalar()
	}
	return s
}

func anyScalar() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "object"}}}
}

// typeUntyped replaces every schema that says nothing (an interface field, which
// jsonschema-go emits as the bare schema true) with an explicit anyOf of the JSON
// types: strict clients reject bare true and flag untyped schemas. Use the
// type= tag to say more. additionalProperties:true is left alone on purpose.
func typeUntyped(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for _, p := range s.Properties {
		if isEmpty(p) {
			desc := p.Description
			*p = *anyJSON()
			p.Description = desc
			continue
		}
		typeUntyped(p)
	}
	if s.Items != nil {
		if isEmpty(s.Items) {
			s.Items = anyJSON()
		} else {
			typeUntyped(s.Items)
		}
	}
	for _, sub := range s.AnyOf {
		typeUntyped(sub)
	}
	if ap := s.AdditionalProperties; ap != nil && !isEmpty(ap) {
		typeUntyped(ap)
	}
}

func isEmpty(s *jsonschema.Schema) bool {
	return s.Type == "" && len(s.Types) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && len(s.AllOf) == 0 &&
		s.Ref == "" && len(s.Enum) == 0 && s.Const == nil && s.Not == nil
}

func anyJSON() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "object"},
		{Type: "array", Items: anyScalar()}, {Type: "null"},
	}}
}

// leanOutput drops "required" and "additionalProperties": false from an output
// schema. For a result typed by a Go struct both are tautologies — every
// non-omitempty field is always encoded and no other field can be — so they
// tell a model nothing, while costing about a fifth of a server's tools/list
// bytes, which every client pays on connect. Input schemas keep both: there
// they reject bad arguments.
func leanOutput(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Required = nil
	if ap := s.AdditionalProperties; ap != nil && ap.Not != nil && isEmpty(ap.Not) {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		leanOutput(p)
	}
	leanOutput(s.Items)
	leanOutput(s.AdditionalProperties)
	for _, sub := range s.AnyOf {
		leanOutput(sub)
	}
}

// unescapeHTML undoes encoding/json's \u003c, \u003e and \u0026 (jsonschema-go
// marshals with HTML escaping): each costs six bytes in every tools/list, and
// schemas are never embedded in HTML. An escape preceded by an odd number of
// backslashes is a literal backslash followed by text, and is left alone.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+5 < len(b) && b[i+1] == 'u' && b[i+2] == '0' && b[i+3] == '0' {
			var r byte
			switch string(b[i+4 : i+6]) {
			case "3c":
				r = '<'
			case "3e":
				r = '>'
			case "26":
				r = '&'
			}
			if r != 0 {
				out = append(out, r)
				i += 5
				continue
			}
		}
		if b[i] == '\\' && i+1 < len(b) {
			out = append(out, b[i], b[i+1]) // any other escape, kept whole (so \\u003c stays literal)
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}
