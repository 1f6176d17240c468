package subscriptions

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestWatchedURIs: the URIs each era's request asks to watch are what Check sees.
func TestWatchedURIs(t *testing.T) {
	cases := []struct {
		msg    string
		method string
		uris   []string
	}{
		{`{"method":"resources/subscribe","params":{"uri":"feed://a"}}`, "resources/subscribe", []string{"feed://a"}},
		{`{"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["x://1","x://2"]}}}`, "subscriptions/listen", []string{"x://1", "x://2"}},
		{`{"method":"tools/call","params":{"uri":"feed://a"}}`, "tools/call", nil},
		{`{"method":`, "", nil},
		{`[]`, "", nil},
	}
	for _, c := range cases {
		method, uris := watchedURIs(json.RawMessage(c.msg))
		if method != c.method || !slices.Equal(uris, c.uris) {
			t.Errorf("%s: got %q %q, want %q %q", c.msg, method, uris, c.method, c.uris)
		}
	}
}

func FuzzWatchedURIs(f *testing.F) {
	f.Add(`{"method":"resources/subscribe","params":{"uri":"feed://a"}}`)
	f.Add(`{"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["x"]}}}`)
	f.Fuzz(func(t *testing.T, msg string) {
		method, uris := watchedURIs(json.RawMessage(msg))
		if method == "" && uris != nil {
			t.Fatalf("URIs without a method: %q", uris)
		}
	})
}
