// Package redact keeps secrets out of logs, errors and tool results.
//
// Two layers: the Secret type, which cannot print its value through fmt, JSON or
// zerolog; and Writer, a safety net under the logger that scrubs registered
// secret values and secret-looking JSON fields from every line it writes.
package redact

import (
	"bytes"
	"io"
	"net/url"
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

// secretName is the precise rule for environment variables that hold secrets:
// the name is, or ends with, _PASSWORD, _PASSWD, _PASS, _SECRET (so _TOTP_SECRET,
// _API_SECRET, _CLIENT_SECRET), _TOKEN(S), _API_KEY/_APIKEY, _ACCESS_KEY,
// _PRIVATE_KEY or _CREDENTIAL(S). Words inside a name do not count: SHOONYA_AUTH
// (oauth or legacy) and SHOONYA_AUTHORIZE_URL are settings, not secrets, and
// scrubbing their values would mangle every log line that says "legacy".
var secretName = regexp.MustCompile(`(?i)(^|_)(PASSWORD|PASSWD|PASS|SECRET|TOKENS?|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)$`)

// countName is a setting that counts tokens (WEB_SEARCH_MAX_OUTPUT_TOKENS),
// not one that holds a token.
var countName = regexp.MustCompile(`(?i)(^|_)(MAX|MIN)_([A-Z]+_)*TOKENS?$`)

var (
	namesMu  sync.RWMutex
	declared = map[string]bool{} // secret variables outside the rule, declared by a server (SecretEnv)
)

// SecretEnv declares environment variables whose values are secret although
// their names do not follow the rule (IsSecretName); their current values are
// registered at once and on every RegisterEnv.
func SecretEnv(names ...string) {
	namesMu.Lock()
	for _, n := range names {
		declared[n] = true
	}
	namesMu.Unlock()
	for _, n := range names {
		registerVar(os.Getenv(n))
	}
}

// IsSecretName reports whether an environment variable holds a secret: its name
// follows the rule above or it was declared with SecretEnv.
func IsSecretName(name string) bool {
	namesMu.RLock()
	d := declared[name]
	namesMu.RUnlock()
	return d || (secretName.MatchString(name) && !countName.MatchString(name))
}

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

// RegisterEnv registers the values of the secret environment variables
// (IsSecretName), and the password of any variable holding a URL with
// credentials (MCPFLEET_REDIS_URL=redis://:pw@host, KTRDR_API_URL=http://u:pw@host).
func RegisterEnv() {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecretName(k) {
			registerVar(v)
		} else if pw := urlPassword(v); pw != "" {
			Register(pw)
		}
	}
}

// registerVar registers a secret variable's value; MCPFLEET_AUTH_TOKENS holds
// user=token pairs, so each token is registered too.
func registerVar(v string) {
	Register(v)
	for _, pair := range strings.Split(v, ",") {
		if _, tok, ok := strings.Cut(pair, "="); ok {
			Register(tok)
		}
	}
}

// urlPassword is the password in a scheme://user:password@host value, or "".
func urlPassword(v string) string {
	if !strings.Contains(v, "://") || !strings.Contains(v, "@") {
		return ""
	}
	u, err := url.Parse(strings.TrimSpace(v))
	if err != nil || u.User == nil {
		return ""
	}
	pw, _ := u.User.Password()
	return pw
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

// jsonField matches "name":"value" pairs in a JSON log line whose field name
// ends with a word that names a secret (password, pwd, secret, token, api_key,
// appkey, authorization, cookie, and Noren's jkey, susertoken, factor2):
// "client_secret", "access_token", "X-Api-Key", "pwd" are scrubbed; "auth",
// "token_url", "secret_set", "totp_configured" are not.
var jsonField = regexp.MustCompile(`"([A-Za-z0-9_.-]*(?i:password|passwd|pwd|secret|tokens?|api[_-]?key|app[_-]?key|authorization|cookie|jkey|susertoken|factor2))":"(?:[^"\\]|\\.)*"`)

// Scrub applies both the field rule and the registered values to one log line.
func Scrub(p []byte) []byte {
	if mayNameSecret(p) {
		p = jsonField.ReplaceAll(p, []byte(`"$1":"`+mask+`"`))
	}
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
	// Scrub never writes into p (a replacement makes a new slice), so the
	// common line with nothing to hide is passed on without a copy.
	if _, err := w.W.Write(Scrub(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// secretWords are the lower-case stems every jsonField match contains ("pass"
// covers password and passwd, "key" api_key, appkey and jkey, "token"
// susertoken). A line holding none cannot match, so the regular expression —
// the main cost of logging a call — runs only on lines that might.
var secretWords = []string{"pass", "pwd", "secret", "token", "key", "authorization", "cookie", "factor2"}

// stemsByFirst lists the stems by their first letter.
var stemsByFirst = func() (t [256][]string) {
	for _, w := range secretWords {
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}()

// mayNameSecret reads the line once (it read it once per stem: a logged
// call's line is scanned on every call).
func mayNameSecret(p []byte) bool {
	for i, c := range p {
		for _, w := range stemsByFirst[c|0x20] {
			if hasFoldAt(p, i, w) {
				return true
			}
		}
	}
	return false
}

// hasFoldAt reports whether p holds the lower-case ASCII word w at i, in any
// case (p[i]|0x20 folds an ASCII capital, as w is lower-case letters and digits).
func hasFoldAt(p []byte, i int, w string) bool {
	if len(p)-i < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if p[i+j]|0x20 != w[j] {
			return false
		}
	}
	return true
}
