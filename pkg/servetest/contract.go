package servetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// ContractCase is one recorded call, as a server keeps them in a contract
// file (a JSON list): the exchanges one client method has with the real
// service, from the public source the case names, and what the method must
// return.
type ContractCase struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Call      string          `json:"call"`
	Args      json.RawMessage `json:"args"`
	Exchanges []Exchange      `json:"exchanges"`
	Want      ContractWant    `json:"want"`
	// OffShape marks an answer its route's shape refuses on purpose (a
	// failure the service sends with 200, say): RunShapes leaves it out.
	OffShape bool `json:"off_shape"`
	// Raw is the case as recorded, for fields of a server's own.
	Raw json.RawMessage `json:"-"`
	// Drift is the watch the call's client reports its answers to
	// (upstream.Config.Drift): RunShapes sets it, Run leaves it nil.
	Drift *drift.Watch `json:"-"`
}

// ContractWant is what a case's call must return: an envelope error with
// this code (the message holding each MessageContains, these Details, and
// when given this retry advice), or else a result that holds Result
// (objects by key, lists by position) and whose lists have the lengths Len
// names (by dotted key, "" the result itself; null counts as empty).
type ContractWant struct {
	ErrorCode       envelope.Code  `json:"error_code"`
	MessageContains []string       `json:"message_contains"`
	Details         map[string]any `json:"details"`
	Retryable       *bool          `json:"retryable"`
	RetryAfterS     *float64       `json:"retry_after_s"`
	Result          any            `json:"result"`
	Len             map[string]int `json:"len"`
}

// UnmarshalJSON keeps the whole case in Raw.
func (c *ContractCase) UnmarshalJSON(b []byte) error {
	type plain ContractCase
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	c.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// Contract is the one contract-test harness: a server's recorded cases
// replayed (Replay) against its client, with no fake in between, so a
// behaviour the client and the fake agree on but the real service lacks
// shows up.
type Contract struct {
	File     string // the cases, e.g. testdata/contract/cases.json
	MinCases int    // fewer fail the test: a file that lost its cases
	// NullIsNoBody is Replay's: the client sends JSON null for no body.
	NullIsNoBody bool
	// DecodeBody is Replay's: a sent body that is not JSON, as the JSON
	// value the recording holds.
	DecodeBody func(sent []byte) ([]byte, error)
	// Call makes the call tc names with a client of base (the replay
	// server's URL) and tc.Drift as its drift watch, and returns what the
	// client returned; checks of a server's own go here too.
	Call func(t *testing.T, base string, tc ContractCase) (any, error)
	// Shapes are the client's drift shapes, which RunShapes checks every
	// recorded answer against.
	Shapes []drift.Shape
}

// Cases reads the contract file.
func (c Contract) Cases(t testing.TB) []ContractCase {
	t.Helper()
	raw, err := os.ReadFile(c.File)
	if err != nil {
		t.Fatal(err)
	}
	var cases []ContractCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("%s: %v", c.File, err)
	}
	if len(cases) < c.MinCases {
		t.Fatalf("only %d contract cases in %s", len(cases), c.File)
	}
	return cases
}

// replay serves tc's exchanges to one call and reports how many were asked for.
func (c Contract) replay(t *testing.T, tc ContractCase) (got any, served int, err error) {
	rp := &Replay{T: t, Exchanges: tc.Exchanges, NullIsNoBody: c.NullIsNoBody, DecodeBody: c.DecodeBody, Dir: filepath.Dir(c.File)}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	got, err = c.Call(t, srv.URL, tc)
	return got, rp.Served(), err
}

// Run replays each case as a subtest: it names its source, the client sends
// exactly the recorded requests, and returns what the case wants.
func (c Contract) Run(t *testing.T) {
	for _, tc := range c.Cases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Source == "" {
				t.Fatal("a contract case must name its source")
			}
			got, n, err := c.replay(t, tc)
			if n != len(tc.Exchanges) {
				t.Fatalf("the client made %d of the %d recorded requests (err %v)", n, len(tc.Exchanges), err)
			}
			tc.Want.check(t, got, err)
		})
	}
}

// RunShapes replays every case through the client with the drift watch
// checking every answer: the recordings pass the shapes the probe and the
// run-time watch use, so a drift report means the service changed.
func (c Contract) RunShapes(t *testing.T) {
	if len(c.Shapes) == 0 {
		t.Fatal("the contract names no Shapes to check the recordings against")
	}
	w := drift.NewWatch("", 0, "")
	w.Register(c.Shapes...)
	for _, tc := range c.Cases(t) {
		if tc.OffShape {
			continue
		}
		tc.Drift = w
		_, _, _ = c.replay(t, tc)
		for _, s := range w.Signals() {
			t.Errorf("%s: %s %s %s: %s", tc.Name, s.Route, s.Kind, s.Path, s.Detail)
		}
		w.Reset()
	}
}

func (w ContractWant) check(t *testing.T, got any, err error) {
	t.Helper()
	if w.ErrorCode != "" {
		var e *envelope.Error
		if !errors.As(err, &e) {
			t.Fatalf("want %s, got result %+v (err %v)", w.ErrorCode, got, err)
		}
		if e.Code != w.ErrorCode {
			t.Fatalf("code %s, want %s: %s", e.Code, w.ErrorCode, e.Message)
		}
		for _, s := range w.MessageContains {
			if !strings.Contains(e.Message, s) {
				t.Errorf("message %q lacks %q", e.Message, s)
			}
		}
		details := asJSON(e.Details)
		for k, v := range w.Details {
			if d, _ := details.(map[string]any); !reflect.DeepEqual(d[k], v) {
				t.Errorf("details[%s] = %v, want %v (%v)", k, d[k], v, details)
			}
		}
		if w.Retryable != nil && e.Retryable != *w.Retryable {
			t.Errorf("retryable %v, want %v", e.Retryable, *w.Retryable)
		}
		if w.RetryAfterS != nil && e.RetryAfter != time.Duration(*w.RetryAfterS*float64(time.Second)) {
			t.Errorf("retry after %v, want %gs", e.RetryAfter, *w.RetryAfterS)
		}
		return
	}
	if w.Retryable != nil || w.RetryAfterS != nil {
		t.Errorf("retry advice is an error's: the case needs an error_code")
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	doc := asJSON(got)
	if path, ok := subset(w.Result, doc, "result"); !ok {
		b, _ := json.Marshal(got)
		t.Fatalf("%s differs: got %s", path, b)
	}
	for path, n := range w.Len {
		v := doc
		if path != "" {
			for _, k := range strings.Split(path, ".") {
				m, _ := v.(map[string]any)
				v = m[k]
			}
		}
		l, ok := v.([]any)
		if !ok && v != nil {
			t.Errorf("len %q: %T, not a list", path, v)
		} else if len(l) != n {
			t.Errorf("len %q = %d, want %d", path, len(l), n)
		}
	}
}

// Recording reads the recorded body name from beside the contract file.
func (c Contract) Recording(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(c.File), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CheckRecordingsUsed fails for every file matching pattern beside the
// contract file that no exchange answers with (body_file) and also does
// not name: a recording nothing replays escapes Run and RunShapes.
func (c Contract) CheckRecordingsUsed(t *testing.T, pattern string, also ...string) {
	t.Helper()
	used := map[string]bool{filepath.Base(c.File): true}
	for _, f := range also {
		used[f] = true
	}
	for _, tc := range c.Cases(t) {
		for _, ex := range tc.Exchanges {
			used[ex.Response.BodyFile] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(filepath.Dir(c.File), pattern))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !used[filepath.Base(f)] {
			t.Errorf("%s is no contract case's answer", f)
		}
	}
}

// asJSON is v as encoding/json reads it back: what a recording compares to.
func asJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// subset reports whether want is contained in got: objects by key, lists
// element-wise by position, scalars equal; else the path where they differ.
func subset(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range w {
			if p, ok := subset(v, g[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return path, false
		}
		for i, v := range w {
			if p, ok := subset(v, g[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, reflect.DeepEqual(want, got)
}

// ShapeOf is the shape of route among shapes; none fails the test.
func ShapeOf(t testing.TB, shapes []drift.Shape, route string) drift.Shape {
	t.Helper()
	for _, s := range shapes {
		if s.Route == route {
			return s
		}
	}
	t.Fatalf("no shape for %q", route)
	return drift.Shape{}
}

// Drifted is a recorded answer (Of, optional) changed the way the service
// could change it into Body, and the kind of finding its route's shape must
// report first.
type Drifted struct{ Name, Route, Of, Body, Kind string }

// CheckShapesCatchDrift fails for every drifted body its shape does not
// catch (or that its change left equal to the recording), and for every
// error body whose first finding against errRoute's error shape is not the
// kind errBodies names ("": a known error shape, no finding).
func CheckShapesCatchDrift(t *testing.T, shapes []drift.Shape, drifted []Drifted, errRoute string, errBodies map[string]string) {
	t.Helper()
	for _, c := range drifted {
		name := c.Name
		if name == "" {
			name = c.Route + " " + c.Body
		}
		if c.Of != "" && c.Body == c.Of {
			t.Errorf("%s: the recording did not change", name)
			continue
		}
		fs := ShapeOf(t, shapes, c.Route).CheckBody([]byte(c.Body))
		if len(fs) == 0 || fs[0].Kind != c.Kind {
			t.Errorf("%.120s: %v, want %s first", name, fs, c.Kind)
		}
	}
	shape := ShapeOf(t, shapes, errRoute)
	for body, kind := range errBodies {
		fs := shape.CheckError([]byte(body))
		if kind == "" && len(fs) != 0 || kind != "" && (len(fs) == 0 || fs[0].Kind != kind) {
			t.Errorf("error body %s: %v, want %q", body, fs, kind)
		}
	}
}
