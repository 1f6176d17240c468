package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Request is one run: the code and the JSON object whose keys become globals.
type Request struct {
	Code      string
	InputData json.RawMessage // nil, JSON null or a JSON object
}

// InvalidError is a request the sandbox refuses before anything runs. Field
// names the argument ("code" or "input_data").
type InvalidError struct {
	Field, Message string
}

func (e *InvalidError) Error() string { return e.Field + ": " + e.Message }

// RefusedError is a request refused before it runs whose answer is a
// failed run (success:false with Message), not a bad argument: input_data
// nested deeper than the interpreter can take in.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return e.Message }

// MaxInputDepth is how deeply input_data may nest (objects and arrays). The
// interpreter decodes it with its recursion limit of 1000 frames shared with
// the code that then walks it; real API data nests a dozen levels.
const MaxInputDepth = 100

func invalid(field, format string, args ...any) error {
	return &InvalidError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Validate checks a request as the sandbox will run it: code is non-empty and
// ≤ 64 KiB; input_data is absent, null or a JSON object of ≤ 1 MiB whose keys
// are Python identifiers (ASCII letters, digits, underscore; not a keyword,
// not a dunder name such as __builtins__, which would replace the sandbox's
// builtins). It returns the input normalised to compact JSON ("{}" if absent).
func Validate(r Request) (json.RawMessage, error) {
	if len(r.Code) == 0 || len(bytes.TrimSpace([]byte(r.Code))) == 0 {
		return nil, invalid("code", "code is empty; pass the Python source to run")
	}
	if len(r.Code) > MaxCodeBytes {
		return nil, invalid("code", "code is %d bytes; the limit is %d (64 KiB)", len(r.Code), MaxCodeBytes)
	}
	raw := bytes.TrimSpace(r.InputData)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if len(raw) > MaxInputDataBytes {
		return nil, invalid("input_data", "input_data is %d bytes of JSON; the limit is %d (1 MiB): pass less data or aggregate it first", len(raw), MaxInputDataBytes)
	}
	if raw[0] != '{' {
		return nil, invalid("input_data", "input_data must be a JSON object whose keys become Python globals")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, invalid("input_data", "input_data is not valid JSON")
	}
	for k := range obj {
		if err := checkIdentifier(k); err != nil {
			return nil, err
		}
	}
	if d := extract.Depth(raw); d > MaxInputDepth {
		return nil, &RefusedError{Message: fmt.Sprintf("input_data is nested %d levels deep; the limit is %d: flatten it (e.g. pass the inner list itself) and rerun", d, MaxInputDepth)}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, invalid("input_data", "input_data is not valid JSON")
	}
	if buf.Len() > MaxInputDataBytes {
		return nil, invalid("input_data", "input_data is larger than 1 MiB")
	}
	return buf.Bytes(), nil
}

// pythonKeywords cannot be globals one can name in code.
var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

func checkIdentifier(k string) error {
	show := extract.Cut(k, 40)
	if k == "" || len(k) > 100 {
		return invalid("input_data", "input_data key %q is not usable as a Python name (1..100 characters)", show)
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && !(i > 0 && c >= '0' && c <= '9') {
			return invalid("input_data", "input_data key %q is not a Python identifier (use letters, digits and _, not starting with a digit)", show)
		}
	}
	if pythonKeywords[k] {
		return invalid("input_data", "input_data key %q is a Python keyword; rename it", show)
	}
	if len(k) >= 4 && k[:2] == "__" && k[len(k)-2:] == "__" {
		return invalid("input_data", "input_data key %q is reserved (dunder names are not allowed)", show)
	}
	return nil
}
