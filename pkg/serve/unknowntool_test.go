package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestUnknownToolNamesTheNearest(t *testing.T) {
	names := toolNames{names: []string{"get_palace_info", "initialize_chart"}, set: map[string]bool{"get_palace_info": true, "initialize_chart": true}}
	var out bytes.Buffer
	w := unknownToolWriter{w: &out, tools: names}
	line := []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"tool 'get_palce_info' not found: tool not found"}}` + "\n")
	if n, err := w.Write(line); err != nil || n != len(line) {
		t.Fatalf("n %d err %v", n, err)
	}
	want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool \"get_palce_info\"; did you mean get_palace_info? (tools/list lists this server's tools)"}}` + "\n"
	if out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
	out.Reset()
	other := []byte(`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n")
	_, _ = w.Write(other)
	if out.String() != string(other) {
		t.Fatalf("an ordinary line changed: %s", out.String())
	}

	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(299) })
	h := unknownToolGate(names, next)
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"initialise_chart"}}`: `did you mean initialize_chart?`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"initialize_chart"}}`: "",
		`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`:                                      "",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)))
		switch {
		case want == "" && rec.Code != 299:
			t.Errorf("%s: intercepted: %d %s", body, rec.Code, rec.Body)
		case want != "" && (!strings.Contains(rec.Body.String(), want) || !strings.Contains(rec.Body.String(), `"code":-32602`)):
			t.Errorf("%s: %d %s", body, rec.Code, rec.Body)
		}
	}
}
