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
// parseHead then decodes: anything that is not a plain object, a key with an
// escape or one matching a field only case-insensitively (encoding/json takes
// both), a method, name or version that is not a plain string, a _meta that is
// not an object, invalid UTF-8, nesting past maxPeekDepth, and every body the
// scanner rejects. FuzzPeekHead holds it to decodeHead's answers.
func peekHead(b []byte) (h rpcHead, sure bool) {
	var method, params []byte
	var okKeys bool
	end := walkObject(b, skipSpace(b, 0), func(key, val []byte) bool {
		switch {
		case string(key) == "id":
			h.ID = val
		case string(key) == "method":
			method = val
		case string(key) == "params":
			params = val
		case foldsTo(key, "id", "method", "params"):
			return false
		}
		return true
	}, &okKeys)
	if end < 0 || !okKeys || skipSpace(b, end) != len(b) {
		return h, false
	}
	if method != nil {
		s, ok := plainString(method)
		if !ok {
			return h, false
		}
		h.Method = s
	}
	h.Params = params
	if len(params) == 0 || params[0] != '{' ||
		(h.Method != string(mcp.MethodToolsCall) && !bytes.Contains(params, []byte(`"_meta"`))) {
		return h, true
	}
	var name, meta, version []byte
	walkObject(params, 0, func(key, val []byte) bool {
		switch {
		case string(key) == "name":
			name = val
		case string(key) == "_meta":
			meta = val
		case foldsTo(key, "name", "_meta"):
			return false
		}
		return true
	}, &okKeys)
	if !okKeys {
		return h, false
	}
	if meta != nil {
		if meta[0] != '{' {
			return h, false
		}
		walkObject(meta, 0, func(key, val []byte) bool {
			switch {
			case string(key) == protocolVersionKey:
				version = val
			case foldsTo(key, protocolVersionKey):
				return false
			}
			return true
		}, &okKeys)
		if !okKeys {
			return h, false
		}
	}
	var tool, ver string
	var ok bool
	if name != nil {
		if tool, ok = plainString(name); !ok {
			return h, false
		}
	}
	if version != nil {
		if ver, ok = plainString(version); !ok {
			return h, false
		}
	}
	h.tool, h.modern = tool, mcp.IsModernProtocol(ver)
	return h, true
}

const protocolVersionKey = "io.modelcontextprotocol/protocolVersion"

// walkObject calls visit with each key and raw value of the object at b[i]
// and returns the index after it, or -1 when it is not a valid object. *ok is
// false when a key has an escape or visit refused it (the caller decodes
// instead); visit is not called again after refusing.
func walkObject(b []byte, i int, visit func(key, val []byte) bool, ok *bool) int {
	*ok = true
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		end := skipString(b, i)
		if end < 0 {
			return -1
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			*ok = false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return -1
		}
		if *ok && !visit(key, b[i:vend]) {
			*ok = false
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
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
