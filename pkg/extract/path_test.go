package extract

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

type symbol struct {
	Symbol string   `json:"symbol"`
	Frames []string `json:"available_timeframes"`
}

// wantErr checks err is an *envelope.Error with code and a message containing sub.
func wantErr(t *testing.T, err error, code envelope.Code, sub string) *envelope.Error {
	t.Helper()
	var e *envelope.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *envelope.Error", err, err)
	}
	if e.Code != code {
		t.Errorf("code = %s, want %s (message %q)", e.Code, code, e.Message)
	}
	if !strings.Contains(e.Message, sub) {
		t.Errorf("message %q does not contain %q", e.Message, sub)
	}
	return e
}

func TestList(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		path    []string
		want    []symbol
		wantErr string // substring of the message; "" = no error
	}{
		{"envelope data", `{"success":true,"data":[{"symbol":"AAPL","available_timeframes":["1h"]}]}`, []string{"data"},
			[]symbol{{Symbol: "AAPL", Frames: []string{"1h"}}}, ""},
		{"top-level array", `[{"symbol":"X"}]`, nil, []symbol{{Symbol: "X"}}, ""},
		{"missing key", `{"success":true}`, []string{"data"}, []symbol{}, ""},
		{"null value", `{"data":null}`, []string{"data"}, []symbol{}, ""},
		{"missing on the way", `{"a":{}}`, []string{"a", "b", "c"}, []symbol{}, ""},
		{"null on the way", `{"a":null}`, []string{"a", "b"}, []symbol{}, ""},
		{"empty array", `{"data":[]}`, []string{"data"}, []symbol{}, ""},
		{"nested", `{"a":{"b":[{"symbol":"Y"}]}}`, []string{"a", "b"}, []symbol{{Symbol: "Y"}}, ""},
		{"object instead of list", `{"data":{"symbol":"X"}}`, []string{"data"}, []symbol{}, "data should be a list but is an object"},
		{"string on the way", `{"a":"x"}`, []string{"a", "b"}, []symbol{}, "a should be an object but is a string"},
		{"malformed", `{"data":[1,2,}`, []string{"data"}, []symbol{}, "not valid JSON"},
		{"html", `<html>502 Bad Gateway</html>`, []string{"data"}, []symbol{}, "HTML"},
		{"empty body", ``, []string{"data"}, []symbol{}, "empty"},
		{"element of wrong type", `{"data":[{"symbol":5}]}`, []string{"data"}, []symbol{}, "data.symbol is a JSON number where a string was expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := List[symbol]([]byte(tt.body), tt.path...)
			if tt.wantErr != "" {
				wantErr(t, err, envelope.UpstreamError, tt.wantErr)
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got == nil {
				t.Fatal("List returned a nil slice")
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestObject(t *testing.T) {
	type health struct {
		Status  string `json:"status"`
		Version string `json:"version"`
	}
	tests := []struct {
		name    string
		body    string
		path    []string
		want    health
		wantErr string
	}{
		{"flat", `{"status":"ok","version":"1.2"}`, nil, health{"ok", "1.2"}, ""},
		{"nested", `{"data":{"status":"ok"}}`, []string{"data"}, health{Status: "ok"}, ""},
		{"missing", `{}`, []string{"data"}, health{}, ""},
		{"null", `{"data":null}`, []string{"data"}, health{}, ""},
		{"list instead", `{"data":[1]}`, []string{"data"}, health{}, "data is a JSON array where an object was expected"},
		{"malformed", `{"data":`, []string{"data"}, health{}, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Object[health]([]byte(tt.body), tt.path...)
			if tt.wantErr != "" {
				wantErr(t, err, envelope.UpstreamError, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestObjectMapAndRaw(t *testing.T) {
	m, err := Object[map[string]any]([]byte(`{"a":{"b":1}}`), "a")
	if err != nil || m["b"] != 1.0 {
		t.Fatalf("got %v, %v", m, err)
	}
	raw, err := Object[json.RawMessage]([]byte(`{"a":{"b":1}}`), "a")
	if err != nil || string(raw) != `{"b":1}` {
		t.Fatalf("got %s, %v", raw, err)
	}
	// json.RawMessage bodies work directly.
	got, err := List[int](json.RawMessage(`{"x":[1,2]}`), "x")
	if err != nil || !reflect.DeepEqual(got, []int{1, 2}) {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestInVariants(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{"data":{"items":[{"symbol":"A"}],"meta":{"n":"3"}},"s":"x"}`), &m); err != nil {
		t.Fatal(err)
	}
	items, err := ListIn[symbol](m, "data", "items")
	if err != nil || len(items) != 1 || items[0].Symbol != "A" {
		t.Fatalf("ListIn = %v, %v", items, err)
	}
	none, err := ListIn[symbol](m, "data", "nope")
	if err != nil || none == nil || len(none) != 0 {
		t.Fatalf("missing ListIn = %#v, %v", none, err)
	}
	meta, err := ObjectIn[struct{ N Int }](m, "data", "meta")
	if err != nil || meta.N != 3 {
		t.Fatalf("ObjectIn = %v, %v", meta, err)
	}
	_, err = ListIn[symbol](m, "s", "x")
	wantErr(t, err, envelope.UpstreamError, "s should be an object but is a string")
	_, err = ListIn[symbol](m, "data", "meta")
	wantErr(t, err, envelope.UpstreamError, "data.meta should be a list but is an object")
	empty, err := ListIn[symbol](nil, "a")
	if err != nil || empty == nil {
		t.Fatalf("nil map: %v, %v", empty, err)
	}
}

func TestRequire(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		path    []string
		want    string
		wantErr string
	}{
		{"present", `{"success":true,"task_id":"op_training_1"}`, []string{"task_id"}, "op_training_1", ""},
		{"nested", `{"data":{"operation_id":"op_1"}}`, []string{"data", "operation_id"}, "op_1", ""},
		{"missing", `{"success":true}`, []string{"task_id"}, "", "start_training: the backend's answer has no task_id"},
		{"null", `{"task_id":null}`, []string{"task_id"}, "", "start_training: the backend's answer has no task_id"},
		{"empty string", `{"task_id":""}`, []string{"task_id"}, "", "has no task_id"},
		{"missing parent", `{}`, []string{"data", "operation_id"}, "", "has no data.operation_id"},
		{"wrong type", `{"task_id":5}`, []string{"task_id"}, "", "start_training: unexpected answer from the upstream: task_id is a JSON number where a string was expected"},
		{"malformed", `{"task_id":`, []string{"task_id"}, "", "start_training: the upstream's answer is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Require[string]([]byte(tt.body), "start_training", tt.path...)
			if tt.wantErr != "" {
				e := wantErr(t, err, envelope.UpstreamError, tt.wantErr)
				if e.Retryable {
					t.Error("a shape error must not be retryable")
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	n, err := Require[Int]([]byte(`{"n":"12"}`), "op", "n")
	if err != nil || n != 12 {
		t.Fatalf("Require[Int] = %v, %v", n, err)
	}
	e := wantErr(t, func() error { _, err := Require[string]([]byte(`{}`), "op", "a", "b"); return err }(), envelope.UpstreamError, "a.b")
	if e.Details["field"] != "a.b" {
		t.Errorf("details.field = %v", e.Details["field"])
	}
}

func TestAt(t *testing.T) {
	raw, err := At([]byte(` {"a": {"b": [1, 2]}} `), "a", "b")
	if err != nil || string(raw) != "[1, 2]" {
		t.Fatalf("At = %s, %v", raw, err)
	}
	raw, err = At([]byte(`{"a":1}`), "x")
	if err != nil || raw != nil {
		t.Fatalf("missing At = %s, %v", raw, err)
	}
}

func BenchmarkList(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"success":true,"data":[`)
	for i := 0; i < 500; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"symbol":"SYM","name":"Some Company","available_timeframes":["1m","5m","1h","1d"]}`)
	}
	sb.WriteString(`],"error":null}`)
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := List[symbol](body, "data"); err != nil {
			b.Fatal(err)
		}
	}
}
