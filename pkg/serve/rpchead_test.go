package serve

import (
	"bytes"
	"testing"
)

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
			if _, sure := peekHead([]byte(tc.body)); tc.ok && !tc.batch && !sure {
				t.Errorf("the one-pass reader left an ordinary message to encoding/json")
			}
			if ok != tc.ok || h.Method != tc.method || h.tool != tc.tool || h.modern != tc.modern || h.batch != tc.batch || h.badID != tc.badID {
				t.Fatalf("got ok=%v %+v", ok, h)
			}
		})
	}
}

// FuzzPeekHead holds the one-pass reader to encoding/json's answer: where it
// is sure, every field parseHead reports is what decodeHead reports.
func FuzzPeekHead(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,{"b":2}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"id":null,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"ID":1,"Method":"tools/call","params":{"NAME":"x"}}`,
		`{"id":{},"method":"ping"} `,
		`{"method":"tools/call","params":{"name":7}}`,
		`{"method":"tools/list","params":{"_meta":null}}`,
		`{"method":"tools/call","params":{"name":"a","name":"b"}}`,
		`{"method":"x\u0041"}`,
		`{"method":"tools/call","paramſ":{"name":"x"}}`,
		"{\"method\":\"tools/call\",\"params\":{\"nameſ\":1,\"name\":\"x\"}}",
		"{\"method\":\"\xff\"}",
		`[{"id":1}]`,
		`{"id":1} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, sure := peekHead(body)
		if !sure {
			return
		}
		want, ok := decodeHead(body)
		got.badID = isBadID(got.ID)
		if !ok || got.batch != want.batch || got.badID != want.badID || got.Method != want.Method ||
			got.tool != want.tool || got.modern != want.modern ||
			!bytes.Equal(got.ID, want.ID) || !bytes.Equal(got.Params, want.Params) {
			t.Fatalf("%q:\n peek   %+v\n decode %+v (ok %v)", body, got, want, ok)
		}
	})
}

// BenchmarkParseHead: the HTTP gate's read of a tools/call envelope.
func BenchmarkParseHead(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"initialize_chart","arguments":{"birthDate":"1990-05-17","birthTimeIndex":6,"gender":"男"}}}`)
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			decodeHead(body)
		}
	})
	b.Run("peek", func(b *testing.B) {
		for b.Loop() {
			parseHead(body)
		}
	})
}
