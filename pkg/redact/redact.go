// Package redact keeps secrets out of logs, errors and tool results.
//
// Two layers: the Secret type, which cannot print its value through fmt, JSON or
// zerolog; and Writer, a safety net under the logger that scrubs registered
// secret values and secret-looking JSON fields from every line it writes.
package redact

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/rs/zerolog"
)

const mask = "[REDACTED]"

// Secret holds a credential. Reveal is the only way to get the value.
type Secret string

func (s Secret) Reveal() string                        { return string(s) }
func (s Secret) String() string                        { return mask }
func (s Secret) GoString() string                      { return mask }
func (s Secret) MarshalJSON() ([]byte, error)          { return []byte(`"` + mask + `"`), nil }
func (s Secret) MarshalText() ([]byte, error)          { return []byte(mask), nil }
func (s Secret) MarshalZerologObject(e *zerolog.Event) { e.Bool("set", s != "") }
func (s Secret) IsSet() bool                           { return s != "" }

// secretName matches environment variable and field names that hold secrets.
var secretName = regexp.MustCompile(`(?i)(pass(word|wd)?|secret|token|api[_-]?key|apikey|totp|auth|cookie|jkey|susertoken|access[_-]?tok|private|credential)`)

// IsSecretName reports whether a variable or field name looks like it holds a secret.
func IsSecretName(name string) bool { return secretName.MatchString(name) }

// minSecretLen keeps short values ("1", "true") from being scrubbed everywhere.
const minSecretLen = 6

var (
	mu     sync.RWMutex
	values []string // sorted longest first so overlapping secrets scrub whole
)

// Register adds values to scrub from every Writer's output.
func Register(vals ...string) {
	mu.Lock()
	defer mu.Unlock()
	for _, v := range vals {
		if len(v) >= minSecretLen && !contains(values, v) {
			values = append(values, v)
		}
	}
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
}

func contains(xs []string, v string) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// RegisterEnv registers the value of every environment variable whose name looks secret.
func RegisterEnv() {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecretName(k) {
			Register(v)
			// MCPFLEET_AUTH_TOKENS holds user=token pairs: scrub each token too.
			for _, pair := range strings.Split(v, ",") {
				if _, tok, ok := strings.Cut(pair, "="); ok {
					Register(tok)
				}
			}
		}
	}
}

// String scrubs registered values from s (for error messages built from upstream text).
func String(s string) string {
	mu.RLock()
	defer mu.RUnlock()
	for _, v := range values {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, mask)
		}
	}
	return s
}

// jsonField matches "name":"value" pairs whose name looks secret, in a JSON log line.
var jsonField = regexp.MustCompile(`"([^"]*(?i:password|passwd|secret|api_?key|apikey|totp|authorization|cookie|jkey|susertoken|pwd|factor2|appkey|access_?token|refresh_?token|auth_?token|bearer)[^"]*)":"(?:[^"\\]|\\.)*"`)

// Scrub applies both the field rule and the registered values to one log line.
func Scrub(p []byte) []byte {
	p = jsonField.ReplaceAll(p, []byte(`"$1":"`+mask+`"`))
	mu.RLock()
	defer mu.RUnlock()
	for _, v := range values {
		if bytes.Contains(p, []byte(v)) {
			p = bytes.ReplaceAll(p, []byte(v), []byte(mask))
		}
	}
	return p
}

// Writer scrubs every write before passing it on. zerolog writes one line per call.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := w.W.Write(Scrub(append([]byte(nil), p...))); err != nil {
		return 0, err
	}
	return len(p), nil
}
