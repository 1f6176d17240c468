package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzNormaliseExchanges: any arguments (the caller's JSON) come back as an
// object with every known exchange code upper-cased and nothing else
// changed, or untouched when they are not exactly one object; never a panic.
func FuzzNormaliseExchanges(f *testing.F) {
	for _, s := range []string{`{"exchange":"nse","token":"22"}`, `{"instruments":["nfo|43650","NSE|22",7]}`, `[]`, `null`, `{"exchange":5}`, `{`, `{"exchange":"nse"} {}`, `{"exchange":"bogus"}`} {
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
		if s, ok := m["exchange"].(string); ok && s != wantExchange(in["exchange"].(string)) {
			t.Fatalf("exchange %q → %q", in["exchange"], s)
		}
	})
}

// wantExchange is what the normaliser must make of an "exchange" value:
// Noren's code when the value names one in any case, else the value as sent.
func wantExchange(s string) string {
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, code := range []string{"NSE", "BSE", "NFO", "BFO", "CDS", "BCD", "MCX", "NCX"} {
		if u == code {
			return u
		}
	}
	return s
}
