package serve

import "bytes"

// peekEnvelope reads a JSON-RPC message's top-level "id" (raw) and whether it
// has a "method", without decoding the rest. The stdio drain runs it on every
// line read and written, and a json.Unmarshal of each cost a fifth of a cached
// call's server CPU. It accepts exactly what encoding/json accepts as an
// object; escaped keys report ok=false so the caller can fall back to
// encoding/json. With answered set (lines mcp-go wrote, known valid), it stops
// at "result" or "error" once the id is seen: a response has no method.
func peekEnvelope(line []byte, answered bool) (id []byte, hasMethod, ok bool) {
	m, ok := openObject(line, skipSpace(line, 0))
	if !ok {
		return nil, false, false
	}
	for {
		key, done, bad := m.next()
		switch {
		case bad || bytes.IndexByte(key, '\\') >= 0:
			return nil, false, false
		case done:
			return id, hasMethod, skipSpace(line, m.end()) == len(line)
		case answered && id != nil && (string(key) == "result" || string(key) == "error"):
			return id, false, true
		}
		val, bad := m.value()
		if bad {
			return nil, false, false
		}
		switch string(key) {
		case "id":
			id = val
		case "method":
			hasMethod = true
		}
	}
}

// members reads a JSON object's members in order, without allocating: the
// one object scanner of the stdio drain (peekEnvelope) and the HTTP gate
// (peekHead). Keys are the raw bytes between the quotes (escapes undone by
// nobody: callers that care refuse a key holding a backslash).
type members struct {
	b      []byte
	i      int  // the next byte to read
	closed bool // the closing brace has been read
}

// openObject starts reading the object at b[i]; ok is false when none starts there.
func openObject(b []byte, i int) (m members, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return m, false
	}
	m = members{b: b, i: skipSpace(b, i+1)}
	if m.i < len(b) && b[m.i] == '}' {
		m.i++
		m.closed = true
	}
	return m, true
}

// next reads the next member's key and the colon after it (value must read
// the value before next is called again); done after the closing brace, bad
// when the text is not a valid object.
func (m *members) next() (key []byte, done, bad bool) {
	if m.closed {
		return nil, true, false
	}
	b, i := m.b, m.i
	if i >= len(b) || b[i] != '"' {
		return nil, false, true
	}
	end := skipString(b, i)
	if end < 0 {
		return nil, false, true
	}
	key = b[i+1 : end-1]
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return nil, false, true
	}
	m.i = skipSpace(b, i+1)
	return key, false, false
}

// value reads the current member's raw value and the comma or brace after it.
func (m *members) value() (val []byte, bad bool) {
	b := m.b
	vend := skipValue(b, m.i)
	if vend < 0 {
		return nil, true
	}
	val = b[m.i:vend]
	i := skipSpace(b, vend)
	if i >= len(b) {
		return nil, true
	}
	switch b[i] {
	case ',':
		m.i = skipSpace(b, i+1)
	case '}':
		m.i = i + 1
		m.closed = true
	default:
		return nil, true
	}
	return val, false
}

// end is the index after the closing brace, once next has reported done.
func (m *members) end() int { return m.i }

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'), or -1
// (unterminated, a control character, or a bad escape).
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			j++
			if j >= len(b) {
				return -1
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-j <= 4 || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return -1
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// maxPeekDepth bounds nesting; deeper lines are left to encoding/json.
const maxPeekDepth = 512

// skipValue returns the index after the JSON value starting at b[i], or -1.
// It loops instead of recursing, so nesting costs a bit, not a stack frame.
func skipValue(b []byte, i int) int {
	var objects [maxPeekDepth / 64]uint64 // bit d set: container at depth d is an object
	depth := 0
	for {
		if i >= len(b) {
			return -1
		}
		opened := false
		switch c := b[i]; c {
		case '"':
			i = skipString(b, i)
		case 't':
			i = literal(b, i, "true")
		case 'f':
			i = literal(b, i, "false")
		case 'n':
			i = literal(b, i, "null")
		case '{', '[':
			if depth == maxPeekDepth {
				return -1
			}
			if c == '{' {
				objects[depth/64] |= 1 << (depth % 64)
			} else {
				objects[depth/64] &^= 1 << (depth % 64)
			}
			depth++
			i = skipSpace(b, i+1)
			if i < len(b) && (c == '{' && b[i] == '}' || c == '[' && b[i] == ']') {
				depth--
				i++
			} else if opened = true; c == '{' {
				i = skipKey(b, i)
			}
		default:
			i = skipNumber(b, i)
		}
		if i < 0 {
			return -1
		}
		if opened {
			continue // the container's first value
		}
		// after a value: close containers until a comma asks for the next one
		for next := false; !next; {
			if depth == 0 {
				return i
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return -1
			}
			object := objects[(depth-1)/64]&(1<<((depth-1)%64)) != 0
			switch {
			case b[i] == ',':
				i = skipSpace(b, i+1)
				if object {
					if i = skipKey(b, i); i < 0 {
						return -1
					}
				}
				next = true
			case object && b[i] == '}', !object && b[i] == ']':
				depth--
				i++
			default:
				return -1
			}
		}
	}
}

// skipKey skips `"key" :` and the space after it, or returns -1.
func skipKey(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = skipString(b, i); i < 0 {
		return -1
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipSpace(b, i+1)
}

func literal(b []byte, i int, word string) int {
	if len(b)-i >= len(word) && string(b[i:i+len(word)]) == word {
		return i + len(word)
	}
	return -1
}

// skipNumber follows JSON's number grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func skipNumber(b []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}
