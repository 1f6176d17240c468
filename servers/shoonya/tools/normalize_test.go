package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzNormaliseExchanges: any arguments (the caller's JSON) come back as an
// object with every "exchange" upper-cased and nothing else changed, or
// untouched when they are not an object; never a panic.
func FuzzNormaliseExchanges(f *testing.F) {
	for _, s := range []string{`{"exchange":"nse","token":"22"}`, `{"instruments":["nfo|43650","NSE|22",7]}`, `[]`, `null`, `{"exchange":5}`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := normaliseExchanges(json.RawMessage(raw))
		m, ok := out.(map[string]any)
		if !ok {
			return
		}
		var in map[string]any
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Fatalf("an object from unparsable input %q", raw)
		}
		if len(m) != len(in) {
			t.Fatalf("keys changed: %v → %v", in, m)
		}
		if s, ok := m["exchange"].(string); ok && s != strings.ToUpper(strings.TrimSpace(in["exchange"].(string))) {
			t.Fatalf("exchange %q → %q", in["exchange"], s)
		}
	})
}
