package extract

import "bytes"

// trimmed is bytes.TrimSpace for JSON whitespace.
func trimmed(b []byte) []byte {
	return bytes.TrimFunc(b, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
}
