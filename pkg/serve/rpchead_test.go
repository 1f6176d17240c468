package serve

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
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
		{"meta key in any case, as mcp-go's struct reads it", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_META":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true, "tools/list", "", true, false, false},
		{"escaped meta key", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true, "tools/list", "", true, false, false},
		{"version key only exact, as mcp-go's map reads it", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"IO.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true, "tools/list", "", false, false, false},
		{"last of repeated version keys", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`, true, "tools/list", "", false, false, false},
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

// FuzzParseHead: any body, never a panic; a batch is an array, a bad id is
// an object, array or boolean, and a message's method and tool are what
// encoding/json reads into mcp-go's own request type.
func FuzzParseHead(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,{"b":2}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"ID":1,"Method":"tools/call","params":{"NAME":"x"}}`,
		`{"id":{},"method":"ping"} `,
		`{"method":"tools/call","paramſ":{"name":"x"}}`,
		`{"method":"tools/list","params":{"_Meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`[{"id":1}]`,
		`{"id":1} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		h, ok := parseHead(body)
		if !ok {
			return
		}
		first := bytes.TrimLeft(body, " \t\r\n")[0]
		if h.batch != (first == '[') {
			t.Fatalf("%q: batch %v", body, h.batch)
		}
		if h.batch {
			return
		}
		var req mcp.CallToolRequest
		if json.Unmarshal(body, &req) == nil && (req.Method != h.Method || (h.Method == string(mcp.MethodToolsCall) && req.Params.Name != h.tool)) {
			t.Fatalf("%q: gate read %q/%q, mcp-go's type %q/%q", body, h.Method, h.tool, req.Method, req.Params.Name)
		}
		if json.Unmarshal(body, &req) == nil && req.Params.Meta != nil && h.modern != mcp.IsModernProtocol(req.Params.Meta.ProtocolVersion()) {
			t.Fatalf("%q: gate read modern=%v, mcp-go's _meta says %q", body, h.modern, req.Params.Meta.ProtocolVersion())
		}
		if id := bytes.TrimSpace(h.ID); len(id) > 0 && h.badID != bytes.ContainsAny(id[:1], "{[tf") {
			t.Fatalf("%q: badID %v", body, h.badID)
		}
	})
}
