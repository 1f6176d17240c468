package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// mustEnvelope fails unless err is nil or an *envelope.Error.
func mustEnvelope(t *testing.T, err error) {
	t.Helper()
	var e *envelope.Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *envelope.Error", err, err)
	}
}

var seedBodies = []string{
	`{"success":true,"data":[{"symbol":"A"}]}`, `{"data":null}`, `{"data":{"x":1}}`, `[]`, `[1,2,}`, ``, `null`,
	`<html>502</html>`, `{"detail":[{"loc":["body",1],"msg":"x"}]}`, `{"stat":"Not_Ok","emsg":"no data"}`,
	`{"success":false,"error":{"code":"X","message":{"message":{"message":"deep"}}}}`, `[{"param":"p","msg":"m"}]`,
	`{"errors":"x"}`, `"str"`, `{"a":{"b":{"c":[null,"",1]}}}`, "\xff\xfe",
}

func FuzzList(f *testing.F) {
	for _, s := range seedBodies {
		f.Add([]byte(s), "data")
	}
	f.Fuzz(func(t *testing.T, body []byte, key string) {
		l, err := List[map[string]any](body, key)
		mustEnvelope(t, err)
		if l == nil {
			t.Fatal("nil slice")
		}
		_, err = List[Num](body, key)
		mustEnvelope(t, err)
		_, err = Object[struct {
			A StringList `json:"a"`
			B Int        `json:"b"`
		}](body, key)
		mustEnvelope(t, err)
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			_, err = ListIn[string](m, key, key)
			mustEnvelope(t, err)
		}
	})
}

func FuzzRequire(f *testing.F) {
	for _, s := range seedBodies {
		f.Add([]byte(s), "task_id")
	}
	f.Fuzz(func(t *testing.T, body []byte, key string) {
		_, err := Require[string](body, "op", key)
		mustEnvelope(t, err)
		_, err = Require[Int](body, "op", "data", key)
		mustEnvelope(t, err)
	})
}

func FuzzDetectors(f *testing.F) {
	for _, s := range seedBodies {
		for _, st := range []int{200, 400, 403, 404, 422, 429, 500, 503} {
			f.Add(st, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		for _, d := range []Detector{SuccessFalse, FastAPI, Noren, ChartImg, Generic} {
			if e := d(status, body); e != nil {
				if e.Message == "" || len([]rune(e.Message)) > 2*MaxUpstreamText+200 {
					t.Fatalf("bad message length %d", len(e.Message))
				}
			}
		}
		mustEnvelope(t, Detect(status, body, SuccessFalse, FastAPI, Noren, ChartImg, Generic))
	})
}

func FuzzNum(f *testing.F) {
	for _, s := range []string{`1`, `"1.5"`, `""`, `null`, `"abc"`, `"1e999"`, `-`, `"0x1p3"`, `1e3`, `"  "`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var n Num
		err := n.UnmarshalJSON(b)
		mustEnvelope(t, err)
		if err == nil {
			if _, merr := json.Marshal(n); merr != nil {
				t.Fatalf("marshal: %v", merr)
			}
		}
		var i Int
		mustEnvelope(t, i.UnmarshalJSON(b))
		_, err = Object[Num](b)
		mustEnvelope(t, err)
	})
}

func FuzzJSONStrings(f *testing.F) {
	for _, s := range []string{`["{\"a\":1}"]`, `[{"a":1}]`, `[null,""]`, `null`, `["{"]`, `{}`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l JSONStrings[map[string]any]
		mustEnvelope(t, l.UnmarshalJSON(b))
		_, err := Object[JSONStrings[Num]](b)
		mustEnvelope(t, err)
	})
}

func FuzzStringList(f *testing.F) {
	for _, s := range []string{`"[\"Yes\",\"No\"]"`, `["a"]`, `""`, `null`, `"null"`, `"[1,true]"`, `"[[1]]"`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l StringList
		err := l.UnmarshalJSON(b)
		mustEnvelope(t, err)
		if err == nil {
			if _, merr := json.Marshal(l); merr != nil {
				t.Fatalf("marshal: %v", merr)
			}
		}
		_, err = Object[StringList](b)
		mustEnvelope(t, err)
	})
}

// FuzzAtKey checks a one-key path against encoding/json's own map decoding.
func FuzzAtKey(f *testing.F) {
	for _, s := range seedBodies {
		f.Add([]byte(s), "data")
	}
	f.Add([]byte(`{"a":1,"a":2,"d\u0061ta":[3]}`), "data")
	f.Add([]byte(`{"x":"}\"{","data":{"y":[1,{"z":"]"}]}}`), "data")
	f.Fuzz(func(t *testing.T, body []byte, key string) {
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) != nil || m == nil {
			return
		}
		want := m[key]
		if isNull(trimmed(want)) {
			want = nil
		}
		got, err := At(body, key)
		if err != nil || !bytes.Equal(got, trimmed(want)) {
			t.Fatalf("At(%q, %q) = %q, %v; encoding/json: %q", body, key, got, err, want)
		}
	})
}
