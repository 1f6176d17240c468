package serve

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestPeekEnvelope(t *testing.T) {
	cases := []struct {
		line      string
		id        string
		hasMethod bool
		ok        bool
	}{
		{`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a \"}\" b"}]}}`, `2`, false, true},
		{`{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{}}`, `"x-1"`, true, true},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1.5e2}}`, ``, true, true},
		{` { "result" : [1, {"id": 9}, null, true, -0.5E-3] , "id" : 7 } `, `7`, false, true},
		{`{"id":null,"error":{"code":-32700,"message":"x\u00e9\n"}}`, `null`, false, true},
		{`{}`, ``, false, true},
		{`{"id":1,"id":2}`, `2`, false, true}, // last wins, as in encoding/json
		{`{"i\u0064":1}`, ``, false, false},   // escaped key: left to encoding/json
		{`{"id":1`, ``, false, false},
		{`{"id":1,}`, ``, false, false},
		{`{"id" 1}`, ``, false, false},
		{`{"id":[1,2}`, ``, false, false},
		{`{"id":"abc}`, ``, false, false},
		{`{"id":1,"a":tru}`, ``, false, false},
		{`{"id":01}`, ``, false, false},
		{`{"id":1.}`, ``, false, false},
		{`{"id":"\x"}`, ``, false, false},
		{`{"id":"\u12"}`, ``, false, false},
		{`[1]`, ``, false, false},
		{`{"id":` + strings.Repeat("[", maxPeekDepth+1) + strings.Repeat("]", maxPeekDepth+1) + `}`, ``, false, false}, // too deep: left to encoding/json
		{`{"id":` + strings.Repeat("[", maxPeekDepth) + strings.Repeat("]", maxPeekDepth) + `}`, strings.Repeat("[", maxPeekDepth) + strings.Repeat("]", maxPeekDepth), false, true},
		{`{"id":1} x`, ``, false, false},
	}
	for _, c := range cases {
		id, m, ok := peekEnvelope([]byte(c.line), false)
		if ok != c.ok || (ok && (string(id) != c.id || m != c.hasMethod)) {
			t.Errorf("%s: got id=%q method=%v ok=%v, want id=%q method=%v ok=%v", c.line, id, m, ok, c.id, c.hasMethod, c.ok)
		}
	}
}

// Lines mcp-go wrote: the id is found without reading the result.
func TestPeekEnvelopeAnswered(t *testing.T) {
	for _, c := range []struct{ line, id string }{
		{`{"jsonrpc":"2.0","id":2,"result":{"never":"read"` + "\x00", `2`}, // stops before the (here broken) result
		{`{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m"}}`, `"a"`},
		{`{"jsonrpc":"2.0","result":{},"id":3}`, `3`}, // result first: read on
	} {
		id, hasMethod, ok := peekEnvelope([]byte(c.line), true)
		if !ok || hasMethod || string(id) != c.id {
			t.Errorf("%s: id=%q method=%v ok=%v", c.line, id, hasMethod, ok)
		}
	}
}

// FuzzPeekEnvelope checks the reader against encoding/json: it accepts exactly
// the valid objects (bar escaped keys and deep nesting), with the same id
// bytes and the same presence of "method".
func FuzzPeekEnvelope(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":2,"result":{"a":[1,"\\"",{}]}}`, `{"method":"x","id":"y"}`, `{"id":-1.5e+3}`, `{`, `{"a":tru}`, `{"id":[[[[]]]]}`, `{"id":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		id, hasMethod, ok := peekEnvelope(line, false)
		var m map[string]json.RawMessage
		valid := json.Unmarshal(line, &m) == nil && m != nil
		if ok && !valid {
			t.Fatalf("accepted what encoding/json rejects: %q", line)
		}
		if !valid {
			return
		}
		if !ok {
			if !bytes.Contains(line, []byte(`\`)) && bytes.Count(line, []byte("["))+bytes.Count(line, []byte("{")) < maxPeekDepth {
				t.Fatalf("rejected a valid object: %q", line)
			}
			return
		}
		if want := m["id"]; !bytes.Equal(id, want) {
			t.Fatalf("%q: id %q, want %q", line, id, want)
		}
		if _, want := m["method"]; hasMethod != want {
			t.Fatalf("%q: hasMethod %v, want %v", line, hasMethod, want)
		}
	})
}

func BenchmarkDrainLineOfResult(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + string(bytes.Repeat([]byte("BINANCE, "), 150)) + `"}],"structuredContent":{"a":{"b":"c"}}}}` + "\n")
	b.Run("json.Unmarshal", func(b *testing.B) { // what the drain did before peekEnvelope
		for b.Loop() {
			var e envelopeID
			_ = json.Unmarshal(line, &e)
		}
	})
	b.Run("answer", func(b *testing.B) {
		for b.Loop() {
			lines(line, true, func(envelopeID) {})
		}
	})
	b.Run("request-path", func(b *testing.B) {
		for b.Loop() {
			lines(line, false, func(envelopeID) {})
		}
	})
}

// BenchmarkDrainRecord: what the drain does per request line read.
func BenchmarkDrainRecord(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"get_exchanges","arguments":{}}}` + "\n")
	d := newDrain()
	for b.Loop() {
		d.record(line)
		d.mu.Lock()
		d.scanLocked()
		d.mu.Unlock()
		d.pending = map[string]bool{}
	}
}
