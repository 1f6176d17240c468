package upstream

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

const redacted = "[REDACTED]"

// secretWords mark header, query and form names whose values are secret.
var secretWords = []string{"key", "token", "secret", "pass", "pwd", "auth", "cookie", "session",
	"signature", "sig", "otp", "pin", "cred", "jkey", "susertoken"}

// secretName reports whether a header, query or form name looks like it holds a secret.
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// appendSecret records a value to scrub; very short values are skipped because
// replacing them would mangle ordinary text (and they cannot be real keys).
func appendSecret(list []string, v string) []string {
	v = strings.TrimSpace(v)
	if len(v) < 4 {
		return list
	}
	list = append(list, v)
	if i := strings.IndexByte(v, ' '); i > 0 && len(v)-i-1 >= 4 { // "Bearer xyz": also the bare token
		list = append(list, v[i+1:])
	}
	if q := url.QueryEscape(v); q != v {
		list = append(list, q)
	}
	return list
}

// scrub replaces every known secret value (the client's and the request's) in s.
func (c *Client) scrub(s string, extra []string) string {
	for _, list := range [][]string{c.secrets, extra} {
		for _, v := range list {
			if v != "" && strings.Contains(s, v) {
				s = strings.ReplaceAll(s, v, redacted)
			}
		}
	}
	return s
}

// redactQuery renders a query for logs with secret-looking values replaced.
func redactQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k))
			b.WriteByte('=')
			if secretName(k) {
				b.WriteString(redacted)
			} else {
				b.WriteString(url.QueryEscape(v))
			}
		}
	}
	return b.String()
}

// redactPath strips any query from a path and redacts the secret-looking values of it.
func redactPath(p string) string {
	path, rawQuery, ok := strings.Cut(p, "?")
	if !ok {
		return p
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return path + "?" + redacted
	}
	return path + "?" + redactQuery(q)
}

// redactURL keeps scheme, host and path of a URL for messages: no credentials, no
// query, no fragment.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			raw = raw[:i]
		}
		if i := strings.LastIndexByte(raw, '@'); i >= 0 {
			raw = raw[i+1:]
		}
		return raw
	}
	u.User = nil
	u.RawQuery = ""
	u.ForceQuery = false // "h://x?" parses with an empty query that String would print
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// requestSecrets lists the values of a request's secret-looking headers, query
// parameters and form fields.
func requestSecrets(r Request) []string {
	var out []string
	for k, v := range r.Headers {
		if secretName(k) {
			out = appendSecret(out, v)
		}
	}
	var inPath url.Values
	if _, raw, ok := strings.Cut(r.Path, "?"); ok {
		inPath, _ = url.ParseQuery(raw)
	}
	for _, vals := range []url.Values{r.Query, r.Form, inPath} {
		for k, vs := range vals {
			if secretName(k) {
				for _, v := range vs {
					out = appendSecret(out, v)
				}
			}
		}
	}
	return out
}

// restyLogger routes resty's own messages to the client's logger at debug level,
// scrubbed (resty may mention URLs).
type restyLogger struct{ c *Client }

func (l restyLogger) Errorf(format string, v ...any) { l.log(format, v...) }
func (l restyLogger) Warnf(format string, v ...any)  { l.log(format, v...) }
func (l restyLogger) Debugf(format string, v ...any) { l.log(format, v...) }
func (l restyLogger) log(format string, v ...any) {
	msg := l.c.scrub(fmt.Sprintf(format, v...), nil)
	l.c.cfg.Logger.Debug().Str("upstream", l.c.cfg.Name).Str("resty", stripURLs(msg)).Send()
}

// stripURLs removes query strings from anything URL-like in s.
func stripURLs(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		if strings.Contains(f, "://") || strings.HasPrefix(f, "/") || strings.HasPrefix(f, "\"http") {
			if j := strings.IndexByte(f, '?'); j >= 0 {
				fields[i] = f[:j] + "?" + redacted
			}
		}
	}
	return strings.Join(fields, " ")
}
