package serve

import "testing"

func TestParseHead(t *testing.T) {
	cases := []struct {
		name, body   string
		ok           bool
		method, tool string
		modern       bool
		batch, badID bool
	}{
		{"legacy call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,{"b":2}]}}}`, true, "tools/call", "echo", false, false, false},
		{"modern call", `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":7}}}`, true, "tools/call", "echo", true, false, false},
		{"modern list", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true, "tools/list", "", true, false, false},
		{"legacy meta", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"progressToken":"p"}}}`, true, "tools/list", "", false, false, false},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, true, "", "", false, true, false},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, true, "ping", "", false, false, true},
		{"not json", `nope`, false, "", "", false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := parseHead([]byte(tc.body))
			if ok != tc.ok || h.Method != tc.method || h.tool != tc.tool || h.modern != tc.modern || h.batch != tc.batch || h.badID != tc.badID {
				t.Fatalf("got ok=%v %+v", ok, h)
			}
		})
	}
}
