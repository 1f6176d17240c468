package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

func FuzzParseTokens(f *testing.F) {
	for _, s := range []string{"", "a=0123456789abcdef", "a=x,b=y", "=,=", "a=0123456789abcdef,a2=0123456789abcdef", ",,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseTokens(s)
		if err != nil {
			if strings.Contains(s, "=") {
				for _, pair := range strings.Split(s, ",") {
					if _, tok, ok := strings.Cut(pair, "="); ok && len(strings.TrimSpace(tok)) >= 16 && strings.Contains(err.Error(), strings.TrimSpace(tok)) {
						t.Fatalf("error quotes a token: %v", err)
					}
				}
			}
			return
		}
		for tok, user := range m {
			if len(tok) < 16 || user == "" {
				t.Fatalf("accepted a bad entry %q=%q", user, tok)
			}
		}
	})
}

type fin struct {
	Msg string `json:"msg" mcp:"maxLength=64"`
}

// FuzzHTTPHandler sends arbitrary bodies and headers through the whole HTTP
// surface: it must never panic, hang or answer 5xx.
func FuzzHTTPHandler(f *testing.F) {
	app := App{Name: "fuzz", Version: "0", Register: func(ctx context.Context, r *Registry) error {
		r.AddTools(toolkit.New(toolkit.Def{Name: "echo", Description: "e", Hints: toolkit.LocalRead},
			func(ctx context.Context, in fin) (fin, error) { return in, nil }))
		return nil
	}}
	o, err := ParseOptions(app, []string{"--transport", "http"}, io.Discard)
	if err != nil {
		f.Fatal(err)
	}
	o.AuthTokens = map[string]string{"0123456789abcdef": "u"}
	log, _ := NewLogger(io.Discard, "error")
	b, err := Build(context.Background(), app, o, log)
	if err != nil {
		f.Fatal(err)
	}
	h := HTTPHandler(b)
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"hi"}}}`,
		`[]`, `null`, `{"id":{},"method":1}`, `{"jsonrpc":"2.0","ID":6,"METHOD":"tools/list"}`,
	} {
		f.Add([]byte(s), "Bearer 0123456789abcdef", "")
		f.Add([]byte(s), "", "http://evil.example")
	}
	f.Fuzz(func(t *testing.T, body []byte, auth, origin string) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { h.ServeHTTP(rec, req.WithContext(ctx)); close(done) }()
		select {
		case <-done:
		case <-time.After(6 * time.Second):
			t.Fatalf("handler hung on %q", body)
		}
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
