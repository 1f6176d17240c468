package servetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSubset(t *testing.T) {
	got := map[string]any{"a": 1.0, "b": []any{"x", "y", "z"}, "c": map[string]any{"d": true, "e": nil}}
	cases := []struct {
		want     string
		ok       bool
		diffPath string
	}{
		{`{}`, true, ""},
		{`{"a":1,"b":["x","y"]}`, true, ""}, // lists by position, a prefix is enough
		{`{"c":{"d":true}}`, true, ""},
		{`{"a":2}`, false, "result.a"},
		{`{"b":["y"]}`, false, "result.b[0]"},
		{`{"b":["x","y","z","w"]}`, false, "result.b"},
		{`{"c":{"d":false}}`, false, "result.c.d"},
		{`{"f":null}`, true, ""}, // a missing key reads as null
		{`{"a":{"x":1}}`, false, "result.a"},
	}
	for _, c := range cases {
		var want any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		path, ok := subset(want, got, "result")
		if ok != c.ok || path != c.diffPath {
			t.Errorf("subset(%s) = %q, %v; want %q, %v", c.want, path, ok, c.diffPath, c.ok)
		}
	}
}

func TestContractCaseKeepsRaw(t *testing.T) {
	var cases []ContractCase
	body := `[{"name":"n","source":"docs §1","call":"get","plan":"PRO","want":{"error_code":"not_found","plan_after":"BASIC"},
		"exchanges":[{"request":{"method":"GET","path":"/x"},"response":{"status":404,"body":{"message":"Not Found"}}}]}]`
	if err := json.Unmarshal([]byte(body), &cases); err != nil || len(cases) != 1 {
		t.Fatal(cases, err)
	}
	c := cases[0]
	var own struct {
		Plan string `json:"plan"`
		Want struct {
			PlanAfter string `json:"plan_after"`
		} `json:"want"`
	}
	if err := json.Unmarshal(c.Raw, &own); err != nil || own.Plan != "PRO" || own.Want.PlanAfter != "BASIC" {
		t.Fatalf("a server's own fields are lost: %+v %v", own, err)
	}
	if c.Name != "n" || c.Want.ErrorCode != "not_found" || len(c.Exchanges) != 1 || c.Exchanges[0].Response.Status != 404 {
		t.Fatalf("%+v", c)
	}
}

// errTB records the failures a Replay reports instead of failing the test.
type errTB struct {
	testing.TB
	errs []string
}

func (e *errTB) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

func TestAnswerRepeatsAndChecksTheRoute(t *testing.T) {
	cases := []struct {
		method, path, body string
		wantErrs           int
	}{
		{"POST", "/v1/x", `{"any":"body"}`, 0},
		{"POST", "/v1/x", "", 0}, // a retry gets the same answer
		{"GET", "/v1/x", "", 1},
		{"POST", "/v1/y", "", 1},
	}
	rec := &errTB{TB: t}
	rp := Answer(rec, "POST", "/v1/x", 429, []byte(`{"error":"slow down"}`))
	srv := httptest.NewServer(rp)
	defer srv.Close()
	for i, c := range cases {
		before := len(rec.errs)
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 429 || string(b) != `{"error":"slow down"}` || len(rec.errs)-before != c.wantErrs {
			t.Errorf("request %d: %d %s, failures %v", i, res.StatusCode, b, rec.errs[before:])
		}
	}
	if rp.Served() != len(cases) {
		t.Errorf("served %d", rp.Served())
	}
	rp.AnyBody, rp.Repeat = false, false
	rp.Exchanges[0].Request.Body = json.RawMessage(`{"want":1}`)
	rp.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/x", strings.NewReader(`{"want":1}`)))
	if len(rec.errs) != 3 || !strings.Contains(rec.errs[2], "unexpected extra request") {
		t.Errorf("without Repeat a request past the recording must fail: %v", rec.errs)
	}
}

// TestReplayFormsAndFiles: a form body is compared as the JSON value its
// decoder makes of it, and an answer kept in its own file is sent with the
// recorded headers.
func TestReplayFormsAndFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "feed.xml"), []byte("<rss/>"), 0o600); err != nil {
		t.Fatal(err)
	}
	decode := func(sent []byte) ([]byte, error) {
		v, err := url.ParseQuery(string(sent))
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]string{"q": v.Get("q")})
	}
	cases := []struct {
		name, sent string
		wantErrs   int
	}{
		{"the recorded form", "q=gold&x=1", 0},
		{"another value", "q=silver", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &errTB{TB: t}
			var ex Exchange
			ex.Request.Method, ex.Request.Path, ex.Request.Body = "POST", "/f", json.RawMessage(`{"q":"gold"}`)
			ex.Response.Status, ex.Response.BodyFile = 200, "feed.xml"
			ex.Response.Headers = map[string]string{"Content-Type": "application/rss+xml"}
			rp := &Replay{T: rec, Exchanges: []Exchange{ex}, DecodeBody: decode, Dir: dir}
			w := httptest.NewRecorder()
			rp.ServeHTTP(w, httptest.NewRequest("POST", "/f", strings.NewReader(c.sent)))
			if w.Body.String() != "<rss/>" || w.Header().Get("Content-Type") != "application/rss+xml" {
				t.Errorf("answer %q %q", w.Header().Get("Content-Type"), w.Body.String())
			}
			if len(rec.errs) != c.wantErrs {
				t.Errorf("failures %v, want %d", rec.errs, c.wantErrs)
			}
		})
	}
}
