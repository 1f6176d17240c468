package fakeupstream

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestParseDrift(t *testing.T) {
	d, err := ParseDrift("deprecate, rename:id=uid,enum:status=paused,error_body")
	if err != nil || !d.Deprecate || d.RenameFrom != "id" || d.RenameTo != "uid" || d.EnumField != "status" || d.EnumValue != "paused" || !d.ErrorBody {
		t.Fatalf("%+v %v", d, err)
	}
	t.Setenv(EnvDrift, "deprecate")
	if d, err := DriftFromEnv(); err != nil || !d.Deprecate {
		t.Fatalf("from env: %+v %v", d, err)
	}
	for _, bad := range []string{"rename:id", "enum:=x", "explode"} {
		if _, err := ParseDrift(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDrifterRewritesAndCounts(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".xml") {
			w.Header().Set("Content-Type", "application/rss+xml")
			_, _ = io.WriteString(w, `<item><pubDate>x</pubDate></item>`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"items":[{"id":"a","status":"open","n":1.50}]}`)
	})
	d := &Drifter{}
	srv := httptest.NewServer(d.Wrap(inner))
	defer srv.Close()
	get := func(method, path, body string) (int, http.Header, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	if _, _, b := get("GET", "/a", ""); !strings.Contains(b, `"id":"a"`) {
		t.Fatalf("no drift changed the body: %s", b)
	}
	if code, _, _ := get("POST", "/_fake/drift", `{"deprecate":true,"rename_from":"id","rename_to":"uid","enum_field":"status","enum_value":"paused"}`); code != 204 {
		t.Fatal(code)
	}
	_, h, b := get("GET", "/a", "")
	if h.Get("Deprecation") == "" || h.Get("Sunset") == "" || !strings.HasPrefix(h.Get("Warning"), "299") {
		t.Errorf("headers %v", h)
	}
	if !strings.Contains(b, `"uid":"a"`) || !strings.Contains(b, `"status":"paused"`) || !strings.Contains(b, `1.50`) {
		t.Errorf("body %s", b)
	}
	d.Set(Drift{RenameFrom: "pubDate", RenameTo: "published"})
	if _, _, b := get("GET", "/f.xml", ""); b != `<item><published>x</published></item>` {
		t.Errorf("xml %s", b)
	}
	d.Set(Drift{EnumField: "pubDate", EnumValue: "a&b"})
	if _, _, b := get("GET", "/f.xml", ""); b != `<item><pubDate>a&amp;b</pubDate></item>` {
		t.Errorf("xml enum %s", b)
	}
	d.Set(Drift{ErrorBody: true})
	if code, _, b := get("GET", "/a", ""); code != 400 || !strings.Contains(b, "errors") {
		t.Errorf("error body %d %s", code, b)
	}
	get("DELETE", "/_fake/drift", "")
	if _, _, b := get("GET", "/a", ""); !strings.Contains(b, `"id":"a"`) {
		t.Fatalf("DELETE did not end the drift: %s", b)
	}
	seen := d.Seen()
	if seen["GET /a"] != 4 || seen["GET /f.xml"] != 2 || len(seen) != 2 {
		t.Fatalf("seen %v (control routes must not count)", seen)
	}
	if m := d.Methods(); len(m) != 1 || m[0] != "GET" {
		t.Fatalf("methods %v", m)
	}
}

// TestRewriteEventStream: in a server-sent event stream the drift reaches
// what each event carries, never the event's own type.
func TestRewriteEventStream(t *testing.T) {
	in := "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"output\":[{\"type\":\"message\"}]}}\n\n"
	got := string(rewrite([]byte(in), "text/event-stream", Drift{EnumField: "type", EnumValue: "x", RenameFrom: "status", RenameTo: "state"}))
	for _, want := range []string{`"type":"response.completed"`, `"type":"x"`, `"state":"completed"`, "event: response.completed\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s: %s", want, got)
		}
	}
}
