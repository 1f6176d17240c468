package toolkit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Presets are tool schemas derived ahead of time. Deriving a schema from Go
// types (jsonschema-go's reflection, then its marshalling) was ~70% of a
// server's start-up work (cold start); a server embeds the schemas
// its snapshot test wrote (servetest.Presets, refreshed with
// UPDATE_TOOLSNAPS=1) and registers them with UsePresets before its tools are
// built.
//
// A preset is used only when its fingerprint — the tool's input and output
// types, field by field with their tags, and this package's schemaVersion —
// equals the tool's own; otherwise the schema is derived as before. A stale
// preset therefore costs start-up time, never a wrong schema; the snapshot
// test fails on it so it gets refreshed.
type Preset struct {
	In          json.RawMessage `json:"in"`
	Out         json.RawMessage `json:"out"`
	Fingerprint string          `json:"fingerprint"`
}

// schemaVersion changes whenever SchemaFor's rules change (tags, lean output,
// escaping): every preset written before is then ignored.
const schemaVersion = "1"

var presets sync.Map // tool name → Preset

// UsePresets registers a presets file (a JSON object: tool name → Preset).
func UsePresets(data []byte) error {
	var m map[string]Preset
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("toolkit presets: %w", err)
	}
	for name, p := range m {
		presets.Store(name, p)
	}
	return nil
}

// schemas returns the input and output schemas of a tool: the preset when it
// matches, else derived from the types.
func schemas[In, Out any](name, fingerprint string) (in, out json.RawMessage, err error) {
	if v, ok := presets.Load(name); ok {
		if p := v.(Preset); p.Fingerprint == fingerprint {
			return p.In, p.Out, nil
		}
	}
	return deriveSchemas[In, Out]()
}

func deriveSchemas[In, Out any]() (in, out json.RawMessage, err error) {
	if in, err = SchemaFor[In](false); err != nil {
		return nil, nil, fmt.Errorf("input schema: %w", err)
	}
	if out, err = SchemaFor[Out](true); err != nil {
		return nil, nil, fmt.Errorf("output schema: %w", err)
	}
	return in, out, nil
}

// Fingerprint of the tool's types, as its preset must carry.
func (t Tool) Fingerprint() string { return t.fingerprint }

// DeriveSchemas derives the tool's schemas from its types, ignoring presets:
// what servetest.Presets writes and checks presets against.
func (t Tool) DeriveSchemas() (in, out json.RawMessage, err error) {
	if t.derive == nil {
		return nil, nil, fmt.Errorf("tool %s was not built by toolkit.New", t.Name())
	}
	return t.derive()
}

// fingerprintOf describes In and Out deeply (every field's name, type and
// tags, through named types) and hashes the description.
func fingerprintOf[In, Out any]() string {
	var b strings.Builder
	b.WriteString("v" + schemaVersion + ";")
	describeType(&b, reflect.TypeFor[In](), map[reflect.Type]bool{})
	b.WriteString("→")
	describeType(&b, reflect.TypeFor[Out](), map[reflect.Type]bool{})
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:12])
}

func describeType(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	b.WriteString(t.PkgPath() + "." + t.String())
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		if t.Kind() == reflect.Map {
			b.WriteString("[")
			describeType(b, t.Key(), seen)
			b.WriteString("]")
		}
		b.WriteString("(")
		describeType(b, t.Elem(), seen)
		b.WriteString(")")
	case reflect.Struct:
		if seen[t] {
			return
		}
		seen[t] = true
		b.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			b.WriteString(f.Name)
			if f.Anonymous {
				b.WriteString(" embedded")
			}
			b.WriteString(" " + strconv.Quote(string(f.Tag)) + ":")
			describeType(b, f.Type, seen)
			b.WriteString(";")
		}
		b.WriteString("}")
	}
}
