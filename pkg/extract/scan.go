package extract

import (
	"bytes"
	"encoding/json"
)

// The walk along a path only needs to find one key's value in an object, so it
// skips over the other values instead of decoding the object into a map (which
// copies every value). The body has been checked with json.Valid first, so the
// scanner can rely on well-formed input; it still never indexes out of range.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for i++; i < len(b); {
		switch b[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1
		default:
			i++
		}
	}
	return len(b)
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}

// findKey returns the value of key in the valid JSON object obj (the last one if
// the key repeats, as encoding/json does).
func findKey(obj []byte, key string) ([]byte, bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i++
	var val []byte
	found := false
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			break
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			break // not reachable on valid JSON
		}
		ks := i
		i = skipString(obj, i)
		k := obj[ks:min(i, len(obj))]
		i = skipSpace(obj, i)
		if i < len(obj) && obj[i] == ':' {
			i++
		}
		i = skipSpace(obj, i)
		vs := i
		i = skipValue(obj, i)
		if keyEquals(k, key) {
			val, found = obj[vs:min(i, len(obj))], true
		}
	}
	return val, found
}

// keyEquals compares a quoted JSON key with key, unescaping only when needed.
func keyEquals(quoted []byte, key string) bool {
	if len(quoted) < 2 {
		return false
	}
	inner := quoted[1 : len(quoted)-1]
	if plainASCII(inner) {
		return string(inner) == key
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return false
	}
	return s == key
}

// trimmed is bytes.TrimSpace for JSON whitespace.
func trimmed(b []byte) []byte {
	return bytes.TrimFunc(b, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
}
