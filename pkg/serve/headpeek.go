package serve

import (
	"bytes"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// peekHead reads what parseHead needs (id, method, params and, inside the
// params, the tool name and the protocol version in _meta) in one pass over
// the body with the stdio drain's scanner. decodeHead did it with two
// json.Unmarshal calls, each validating the body first: ~6% of an HTTP
// call's server CPU (issue 20).
//
// sure is false whenever the answer might differ from encoding/json's, and
// parseHead then decodes: anything that is not a plain object; a key with an
// escape, a non-ASCII byte, or matching a field only case-insensitively
// (encoding/json may take each for the field); a method, name or version that
// is not a plain string; a _meta that is not an object; invalid UTF-8; nesting
// past maxPeekDepth; and every body the scanner rejects. FuzzPeekHead holds it to decodeHead's answers.
func peekHead(b []byte) (h rpcHead, sure bool) {
	top, end, sure := pick(b, skipSpace(b, 0), "id", "method", "params")
	if !sure || skipSpace(b, end) != len(b) {
		return h, false
	}
	h.ID, h.Params = top[0], top[2]
	if method := top[1]; method != nil {
		if h.Method, sure = plainString(method); !sure {
			return h, false
		}
	}
	params := h.Params
	if len(params) == 0 || params[0] != '{' ||
		(h.Method != string(mcp.MethodToolsCall) && !bytes.Contains(params, []byte(`"_meta"`))) {
		return h, true
	}
	in, _, sure := pick(params, 0, "name", "_meta")
	if !sure {
		return h, false
	}
	var version []byte
	if meta := in[1]; meta != nil {
		if meta[0] != '{' {
			return h, false
		}
		mv, _, sure := pick(meta, 0, protocolVersionKey)
		if !sure {
			return h, false
		}
		version = mv[0]
	}
	var tool, ver string
	if in[0] != nil {
		if tool, sure = plainString(in[0]); !sure {
			return h, false
		}
	}
	if version != nil {
		if ver, sure = plainString(version); !sure {
			return h, false
		}
	}
	h.tool, h.modern = tool, mcp.IsModernProtocol(ver)
	return h, true
}

const protocolVersionKey = "io.modelcontextprotocol/protocolVersion"

// pick returns the raw values of up to three named members of the object at
// b[i] (the last of a repeated name, as encoding/json keeps) and the index
// after the object. sure is false for an invalid object, a key with an escape
// or a non-ASCII byte, or a key matching a name only case-insensitively
// (encoding/json would take it for the field).
func pick(b []byte, i int, names ...string) (vals [3][]byte, end int, sure bool) {
	m, ok := openObject(b, i)
	if !ok {
		return vals, 0, false
	}
	for {
		key, done, bad := m.next()
		if bad || bytes.IndexByte(key, '\\') >= 0 || !isASCII(key) {
			return vals, 0, false
		}
		if done {
			return vals, m.end(), true
		}
		val, bad := m.value()
		if bad {
			return vals, 0, false
		}
		for n, name := range names {
			if string(key) == name {
				vals[n] = val
			} else if foldsTo(key, name) {
				return vals, 0, false
			}
		}
	}
}

// isASCII: a key with other bytes is left to encoding/json, whose field
// matching folds some of them onto ASCII letters ("paramſ" is its "params").
func isASCII(key []byte) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldsTo reports a key encoding/json would match to one of the fields
// case-insensitively although it is not the field's exact name.
func foldsTo(key []byte, fields ...string) bool {
	for _, f := range fields {
		if len(key) == len(f) && string(key) != f && bytes.EqualFold(key, []byte(f)) {
			return true
		}
	}
	return false
}

// plainString is a JSON string value with no escape and valid UTF-8 (what
// encoding/json would decode to the same bytes).
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}
