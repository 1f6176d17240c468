package extract

import (
	"bytes"
	"encoding/json"
)

// Depth is the deepest nesting of objects and arrays in raw, read with
// encoding/json's tokenizer, which builds no values: a deeply nested
// document is measured before anything decodes it.
// Malformed input counts up to where it stops being JSON.
func Depth(raw []byte) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	depth, deepest := 0, 0
	for {
		t, err := dec.Token()
		if err != nil {
			return deepest
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				deepest = max(deepest, depth)
			default:
				depth--
			}
		}
	}
}
