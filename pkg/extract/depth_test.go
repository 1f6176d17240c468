package extract

import (
	"encoding/json"
	"testing"
)

// FuzzDepth: the depth of valid JSON is that of its decoded value, and
// no input makes Depth panic.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":[]}]}`, `[[[[]]]]`, `"[{"`, `{"a":"]}"}`, `[1,`, `}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := Depth([]byte(s))
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		if want := valueDepth(v); d != want {
			t.Fatalf("Depth(%q) = %d, want %d", s, d, want)
		}
	})
}

func valueDepth(v any) int {
	deepest := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			deepest = max(deepest, valueDepth(e))
		}
	case []any:
		for _, e := range x {
			deepest = max(deepest, valueDepth(e))
		}
	default:
		return 0
	}
	return deepest + 1
}
