package extract

import (
	"bytes"
	"encoding/json"
)

// Depth is the deepest nesting of objects and arrays in raw, read with
// encoding/json's tokenizer, which keeps no stack of its own values: a
// document nested a million levels deep is measured without being decoded.
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
