package fakeupstream

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// EnvDrift switches a fake binary's drift on at start (ParseDrift's syntax).
const EnvDrift = "FAKE_DRIFT"

// Drift is how a fake moves away from the real service, to test that the
// drift watch notices (docs/drift.md). Zero is no drift.
type Drift struct {
	// Deprecate adds Deprecation, Sunset and Warning 299 headers.
	Deprecate bool `json:"deprecate,omitempty"`
	// RenameFrom → RenameTo renames every JSON key (or XML element) so named.
	RenameFrom string `json:"rename_from,omitempty"`
	RenameTo   string `json:"rename_to,omitempty"`
	// EnumField gets EnumValue wherever it holds a string, or as the text of
	// every such XML element (a new enum value).
	EnumField string `json:"enum_field,omitempty"`
	EnumValue string `json:"enum_value,omitempty"`
	// ErrorBody answers every request 400 with an error in a new shape.
	ErrorBody bool `json:"error_body,omitempty"`
}

// ParseDrift reads "deprecate", "rename:from=to", "enum:field=value" and
// "error_body", comma-separated.
func ParseDrift(s string) (Drift, error) {
	var d Drift
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		kind, arg, _ := strings.Cut(part, ":")
		a, b, hasEq := strings.Cut(arg, "=")
		switch {
		case part == "":
		case kind == "deprecate":
			d.Deprecate = true
		case kind == "error_body":
			d.ErrorBody = true
		case kind == "rename" && hasEq && a != "" && b != "":
			d.RenameFrom, d.RenameTo = a, b
		case kind == "enum" && hasEq && a != "" && b != "":
			d.EnumField, d.EnumValue = a, b
		default:
			return Drift{}, fmt.Errorf("unknown drift %q: want deprecate, rename:from=to, enum:field=value or error_body", part)
		}
	}
	return d, nil
}

// Drifter wraps a fake's handler: it applies the current Drift to every
// answer but the fake's own /_fake/ routes, serves POST/DELETE /_fake/drift,
// and counts the requests it saw by method and path (so a test proves a
// probe only read). The zero Drifter drifts nothing. Safe for concurrent use.
type Drifter struct {
	mu    sync.Mutex
	drift Drift
	seen  map[string]int
}

// DriftFromEnv is the drift named by FAKE_DRIFT (none when unset): a fake
// binary's main sets it on its Drifter.
func DriftFromEnv() (Drift, error) { return ParseDrift(os.Getenv(EnvDrift)) }

// Set replaces the drift (the test hook).
func (d *Drifter) Set(dr Drift) { d.mu.Lock(); d.drift = dr; d.mu.Unlock() }

// Seen is "METHOD /path" → requests, the fake's own routes left out.
func (d *Drifter) Seen() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]int, len(d.seen))
	for k, v := range d.seen {
		out[k] = v
	}
	return out
}

// Methods lists the methods seen, sorted.
func (d *Drifter) Methods() []string {
	set := map[string]bool{}
	for k := range d.Seen() {
		m, _, _ := strings.Cut(k, " ")
		set[m] = true
	}
	var out []string
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// Wrap applies the drift to h's answers.
func (d *Drifter) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/_fake/drift" {
			d.control(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/_fake/") {
			h.ServeHTTP(w, r)
			return
		}
		d.mu.Lock()
		if d.seen == nil {
			d.seen = map[string]int{}
		}
		if len(d.seen) < 10000 {
			d.seen[r.Method+" "+r.URL.Path]++
		}
		dr := d.drift
		d.mu.Unlock()
		if dr == (Drift{}) || websocket(r) {
			h.ServeHTTP(w, r)
			return
		}
		if dr.ErrorBody {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"status":"400","detail":"the request was refused (drifted error shape)"}]}`))
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if dr.RenameFrom != "" || dr.EnumField != "" {
			body = rewrite(body, rec.Header().Get("Content-Type"), dr)
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		if dr.Deprecate {
			w.Header().Set("Deprecation", "true")
			w.Header().Set("Sunset", "Fri, 01 Jan 2027 00:00:00 GMT")
			w.Header().Add("Warning", `299 - "this route is deprecated (fake drift)"`)
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

func websocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

func (d *Drifter) control(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodDelete:
		d.Set(Drift{})
	case http.MethodPost:
		var dr Drift
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxControlBody)).Decode(&dr); err != nil {
			http.Error(w, "want a drift object: "+err.Error(), http.StatusBadRequest)
			return
		}
		d.Set(dr)
	default:
		http.Error(w, "POST a drift object or DELETE it", http.StatusMethodNotAllowed)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// rewrite renames keys and sets enum values in a JSON body (or in each
// data line of a server-sent event stream, whose events keep their own
// type: the drift is in what they carry), or renames elements in an XML
// body; anything else is left alone.
func rewrite(body []byte, contentType string, dr Drift) []byte {
	if strings.Contains(contentType, "text/event-stream") {
		lines := bytes.Split(body, []byte("\n"))
		for i, l := range lines {
			data, ok := bytes.CutPrefix(l, []byte("data: "))
			var ev map[string]json.RawMessage
			if !ok || json.Unmarshal(data, &ev) != nil {
				continue
			}
			for k, v := range ev {
				if k != "type" {
					ev[k] = rewrite(v, "application/json", dr)
				}
			}
			if dr.RenameFrom != "" && dr.RenameFrom != "type" {
				if v, has := ev[dr.RenameFrom]; has {
					delete(ev, dr.RenameFrom)
					ev[dr.RenameTo] = v
				}
			}
			if out, err := json.Marshal(ev); err == nil {
				lines[i] = append([]byte("data: "), out...)
			}
		}
		return bytes.Join(lines, []byte("\n"))
	}
	if strings.Contains(contentType, "xml") {
		if dr.RenameFrom != "" {
			for _, p := range [][2]string{{"<" + dr.RenameFrom + ">", "<" + dr.RenameTo + ">"},
				{"<" + dr.RenameFrom + " ", "<" + dr.RenameTo + " "}, {"</" + dr.RenameFrom + ">", "</" + dr.RenameTo + ">"}} {
				body = bytes.ReplaceAll(body, []byte(p[0]), []byte(p[1]))
			}
		}
		if dr.EnumField != "" {
			re := regexp.MustCompile(`<` + regexp.QuoteMeta(dr.EnumField) + `>[^<]*</` + regexp.QuoteMeta(dr.EnumField) + `>`)
			body = re.ReplaceAll(body, []byte("<"+dr.EnumField+">"+xmlEscape(dr.EnumValue)+"</"+dr.EnumField+">"))
		}
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return body
	}
	out, err := json.Marshal(rewriteValue(doc, dr))
	if err != nil {
		return body
	}
	return out
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func rewriteValue(v any, dr Drift) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			e = rewriteValue(e, dr)
			if _, isStr := e.(string); isStr && k == dr.EnumField {
				e = dr.EnumValue
			}
			if k == dr.RenameFrom && dr.RenameTo != "" {
				k = dr.RenameTo
			}
			out[k] = e
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = rewriteValue(e, dr)
		}
	}
	return v
}
