package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// itemApp serves test://item/{id}; ids starting with "bad" are malformed.
func itemApp() serve.App {
	app := testApp()
	reg := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error {
		if err := reg(ctx, r); err != nil {
			return err
		}
		r.Server.AddResourceTemplate(mcp.NewResourceTemplate("test://item/{id}", "item"),
			func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				if strings.HasPrefix(req.Params.URI, "test://item/bad") {
					return nil, errors.New("malformed id")
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: "ok"}}, nil
			})
		r.CheckResourceURIs(func(uri string) error {
			if strings.HasPrefix(uri, "test://item/bad") {
				return errors.New("id is malformed: use an id from list_items")
			}
			return nil
		})
		return nil
	}
	return app
}

// TestCheckedResourceURIsAreInvalidParams: a resources/read the server's
// check refuses is -32602 with its message on stdio and HTTP (mcp-go alone
// answers the handler's error -32603); other reads are untouched.
func TestCheckedResourceURIsAreInvalidParams(t *testing.T) {
	const bad = `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"test://item/bad1"}}`
	const good = `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"test://item/7"}}`
	verify := func(transport string, answers map[float64]map[string]any) {
		t.Helper()
		e, _ := answers[5]["error"].(map[string]any)
		if e == nil || e["code"] != float64(mcp.INVALID_PARAMS) || !strings.Contains(e["message"].(string), "list_items") {
			t.Errorf("%s bad: %v", transport, answers[5])
		}
		if answers[6]["result"] == nil {
			t.Errorf("%s good: %v", transport, answers[6])
		}
	}
	decode := func(b []byte) map[string]any {
		if i := bytes.Index(b, []byte("data: ")); i >= 0 {
			b = bytes.TrimSpace(b[i+6:])
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m
	}

	var out, stderr bytes.Buffer
	in := initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + bad + "\n" + good + "\n"
	done := make(chan int, 1)
	go func() { done <- serve.Run(context.Background(), itemApp(), nil, strings.NewReader(in), &out, &stderr) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("stdio server did not exit")
	}
	answers := map[float64]map[string]any{}
	for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		m := decode(line)
		if id, ok := m["id"].(float64); ok {
			answers[id] = m
		}
	}
	verify("stdio", answers)

	o, err := serve.ParseOptions(itemApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, "error")
	b, err := serve.Build(context.Background(), itemApp(), o, log)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.HTTPHandler(b)
	session := ""
	post := func(body string) map[string]any {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if s := rec.Header().Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		return decode(rec.Body.Bytes())
	}
	post(initBody)
	verify("http", map[float64]map[string]any{5: post(bad), 6: post(good)})
}
