package feed

import (
	"encoding/json"
	"errors"
)

// Msg is one decoded websocket frame. Decode reuses it, so the hot path does
// not allocate; byte fields alias the frame and are valid until the next Decode.
type Msg struct {
	T, E, TK []byte // message type, exchange, token
	TS, LTT  []byte // trading symbol, last trade time
	S, UID   []byte // ack status, user id (ck / ak)
	n        int
	slots    [nFields]uint8
	vals     [nFields]float64
}

// Fields returns how many numeric fields the frame carried.
func (m *Msg) Fields() int { return m.n }

var errBadFrame = errors.New("feed: frame is not a flat JSON object of strings and numbers")

// Decode parses a Noren frame: a flat JSON object whose values are strings
// (numbers as strings) or plain numbers. Unknown keys are skipped; a numeric
// field that does not parse is an error (the frame is dropped, not merged).
func (m *Msg) Decode(b []byte) error {
	m.T, m.E, m.TK, m.TS, m.LTT, m.S, m.UID = nil, nil, nil, nil, nil, nil, nil
	m.n = 0
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errBadFrame
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return errBadFrame
		}
		key, next, ok := str(b, i)
		if !ok {
			return errBadFrame
		}
		i = skipWS(b, next)
		if i >= len(b) || b[i] != ':' {
			return errBadFrame
		}
		i = skipWS(b, i+1)
		if i >= len(b) {
			return errBadFrame
		}
		var val []byte
		quoted := b[i] == '"'
		if quoted {
			val, next, ok = str(b, i)
			if !ok {
				return errBadFrame
			}
		} else {
			j := i
			for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' && b[j] != '\n' && b[j] != '\r' && b[j] != '\t' {
				j++
			}
			if j == i || b[i] == '{' || b[i] == '[' {
				return errBadFrame
			}
			val, next = b[i:j], j
			if string(val) == "null" {
				val = nil
			}
		}
		if err := m.set(key, val, quoted); err != nil {
			return err
		}
		i = skipWS(b, next)
		if i >= len(b) {
			return errBadFrame
		}
		if b[i] == '}' {
			return trailing(b, i+1)
		}
		if b[i] != ',' {
			return errBadFrame
		}
		i = skipWS(b, i+1)
	}
}

func (m *Msg) set(key, val []byte, quoted bool) error {
	switch string(key) {
	case "t":
		m.T = val
		return nil
	case "e":
		m.E = val
		return nil
	case "tk":
		m.TK = val
		return nil
	case "ts":
		m.TS = val
		return nil
	case "ltt":
		m.LTT = val
		return nil
	case "s":
		m.S = val
		return nil
	case "uid":
		m.UID = val
		return nil
	}
	slot := slotOf(key)
	if slot < 0 || len(val) == 0 {
		return nil
	}
	f, ok := parseNum(val)
	if !ok {
		return errBadFrame
	}
	m.slots[m.n] = uint8(slot)
	m.vals[m.n] = f
	if m.n < nFields-1 {
		m.n++
	}
	return nil
}

func trailing(b []byte, i int) error {
	if skipWS(b, i) != len(b) {
		return errBadFrame
	}
	return nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// str reads a JSON string starting at b[i] == '"'. Escapes are rare in feed
// frames (symbols like M&M may arrive as \u0026); an escaped value is decoded
// into a fresh slice.
func str(b []byte, i int) (val []byte, next int, ok bool) {
	j := i + 1
	esc := false
	for j < len(b) {
		c := b[j]
		if c == '\\' {
			esc = true
			j += 2
			continue
		}
		if c == '"' {
			if !esc {
				return b[i+1 : j], j + 1, true
			}
			var s string
			if json.Unmarshal(b[i:j+1], &s) != nil {
				return nil, 0, false
			}
			return []byte(s), j + 1, true
		}
		if c < 0x20 {
			return nil, 0, false
		}
		j++
	}
	return nil, 0, false
}
