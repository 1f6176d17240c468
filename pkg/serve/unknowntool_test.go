package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestUnknownToolNamesTheNearest(t *testing.T) {
	names := toolNames{names: []string{"get_palace_info", "initialize_chart"}, set: map[string]bool{"get_palace_info": true, "initialize_chart": true}}
	// stdio: answered before mcp-go, which never sees the line.
	var out bytes.Buffer
	in := &stdioIn{tools: names, out: &stdioOut{w: &out, pending: map[string]bool{}}, log: zerolog.Nop()}
	if in.accept([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_palce_info","arguments":{}}}` + "\n")) {
		t.Fatal("an unknown tool's call was handed to mcp-go")
	}
	want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool \"get_palce_info\"; did you mean get_palace_info? (tools/list lists this server's tools)"}}` + "\n"
	if out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
	out.Reset()
	if !in.accept([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_palace_info"}}`+"\n")) || out.Len() > 0 {
		t.Fatalf("a known tool's call was answered: %s", out.String())
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
