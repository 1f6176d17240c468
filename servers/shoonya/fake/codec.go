package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Era is the protocol generation a request arrived on.
type Era string

const (
	EraLegacy Era = "legacy" // /NorenWClientTP/, QuickAuth, jKey
	EraOAuth  Era = "oauth"  // /NorenWClientAPI/, GenAcsTok, Bearer
)

// call is one parsed Noren REST request.
type call struct {
	route    string
	era      Era
	raw      string         // the jData JSON text as received
	data     map[string]any // decoded jData (nil when missing/invalid)
	hasJData bool
	badJSON  bool
	token    string // from Authorization: Bearer, else &jKey=
	bodyJKey bool   // the body carried &jKey= (whatever the header said)
	sess     *session
	remote   string
}

// parseCall reads a body as every public client sends it (NorenApi.py,
// ShoonyaApi-js lib/RestApi.js, norenapigo http.go): ignore Content-Type,
// strip the leading jData=, split off a trailing &jKey=, JSON-decode the rest.
func parseCall(r *http.Request, body []byte, route string, era Era) *call {
	c := &call{route: route, era: era, remote: r.RemoteAddr}
	s := strings.TrimSpace(string(body))
	if i := strings.LastIndex(s, "&jKey="); i >= 0 {
		c.token = s[i+len("&jKey="):]
		s = s[:i]
		c.bodyJKey = c.token != ""
	} else if strings.HasPrefix(s, "jKey=") { // jKey first, form style
		if j := strings.Index(s, "&jData="); j >= 0 {
			c.token, s = s[len("jKey="):j], s[j+1:]
			c.bodyJKey = c.token != ""
		}
	}
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		c.token = strings.TrimSpace(h[7:])
	}
	if !strings.HasPrefix(s, "jData=") {
		return c
	}
	c.hasJData = true
	s = s[len("jData="):]
	if !strings.HasPrefix(strings.TrimSpace(s), "{") { // form-encoded by some clients
		if u, err := url.QueryUnescape(s); err == nil {
			s = u
		}
		if t, err := url.QueryUnescape(c.token); err == nil {
			c.token = t
		}
	}
	c.raw = s
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&c.data); err != nil || c.data == nil {
		c.badJSON, c.data = true, nil
	}
	return c
}

// str returns a field as Noren sends it: strings verbatim, numbers as their
// text, JSON null / absent as "".
func (c *call) str(k string) string {
	switch v := c.data[k].(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(v)
	case json.Number:
		return v.String()
	default:
		return fmt.Sprint(v)
	}
}

// has reports whether a field is present with a usable value ("None" — the
// Python client's str(None) — counts as absent).
func (c *call) has(k string) bool {
	v := c.str(k)
	return v != "" && v != "None" && v != "null"
}

// symbol returns tsym/stext URL-unescaped (clients quote_plus them: M%26M-EQ);
// a literal & sent as \u0026 is already decoded by JSON.
func (c *call) symbol(k string) string {
	v := c.str(k)
	if strings.ContainsAny(v, "%+") {
		if u, err := url.QueryUnescape(v); err == nil {
			return u
		}
	}
	return v
}

// fieldsAsStrings flattens jData for the ledger.
func (c *call) fieldsAsStrings() map[string]string {
	out := make(map[string]string, len(c.data))
	for k := range c.data {
		out[k] = c.str(k)
	}
	return out
}

// reply is what a route handler answers: an object or a list, and a status.
type reply struct {
	status int
	body   any
}

func requestTime(t time.Time) string { return t.In(IST).Format("15:04:05 02-01-2006") }

func (s *Server) ok(fields map[string]any) reply {
	if fields == nil {
		fields = map[string]any{}
	}
	fields["stat"] = "Ok"
	fields["request_time"] = requestTime(s.now())
	return reply{status: http.StatusOK, body: fields}
}

// source: ShoonyaApi-py README samples (in-band Not_Ok with emsg; HTTP 200 in ShoonyaApi-py#131).
func (s *Server) notOk(emsg string) reply { return s.notOkStatus(http.StatusOK, emsg) }

func (s *Server) notOkStatus(status int, emsg string) reply {
	return reply{status: status, body: map[string]any{
		"stat": "Not_Ok", "emsg": emsg, "request_time": requestTime(s.now()),
	}}
}

// list answers a list endpoint: a bare array on success, the configured
// "no data" object when empty.
// source: NorenApi.py (type(res) != list means failure) and the README
// PositionBook sample (bare array on success, Not_Ok object when empty);
// assumed: the exact empty-book emsg of the other books, Config.NoDataEmsg.
func (s *Server) list(items []map[string]any) reply {
	if len(items) == 0 {
		if s.cfg.EmptyBooksAsArray {
			return reply{status: http.StatusOK, body: []any{}}
		}
		return s.notOk(s.cfg.NoDataEmsg)
	}
	for _, it := range items {
		it["stat"] = "Ok"
	}
	return reply{status: http.StatusOK, body: items}
}

// source: ShoonyaApi-py README samples ("Session Expired : Invalid Session Key"); HTTP 403 per a
// transcription of shoonya.com/api-documentation (assumed, configurable).
func (s *Server) sessionExpired() reply {
	return s.notOkStatus(s.cfg.SessionExpiredStatus, EmsgSessionExpired)
}

func encodeReply(rp reply) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rp.body)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func writeReply(w http.ResponseWriter, rp reply) {
	b := encodeReply(rp)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(rp.status)
	_, _ = w.Write(b)
}
