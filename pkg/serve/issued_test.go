package serve_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// issuedServer serves testApp with issued tokens on (and the static token
// static) from a state file in dir; the returned store is a second opening
// of that file, as `mcpfleet token` would make.
func issuedServer(t *testing.T, dir, static string) (url string, tokens issued.Store, logs *servetest.Buffer) {
	t.Helper()
	t.Setenv("MCPFLEET_AUTH_ISSUED", "1")
	t.Setenv("MCPFLEET_STATE", "file")
	t.Setenv("MCPFLEET_STATE_DIR", dir)
	t.Setenv("MCPFLEET_AUTH_TOKENS", "ops="+static)
	o, err := serve.ParseOptions(testApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs = &servetest.Buffer{}
	log, _ := serve.NewLogger(logs, "debug")
	b, err := serve.Build(context.Background(), testApp(), o, log)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(serve.HTTPHandler(b))
	t.Cleanup(ts.Close)
	db := storetest.Open(t, store.File(dir, "testsrv"))
	if tokens, err = issued.NewStore(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return ts.URL + "/mcp", tokens, logs
}

func TestIssuedTokens(t *testing.T) {
	const static = "static-0123456789abcdef"
	url, st, logs := issuedServer(t, t.TempDir(), static)
	ctx := context.Background()
	issue := func(user string, scopes []string, ttl time.Duration) (string, issued.Token) {
		s, tk, err := issued.Issue(ctx, st, "testsrv", user, scopes, ttl, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return s, tk
	}
	full, fullTok := issue("alice", nil, 0)
	ro, _ := issue("bob", []string{"read"}, 0)
	short, _ := issue("carol", nil, time.Second)
	other, _, err := issued.Issue(ctx, st, "othersrv", "alice", nil, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{full, ro, short, other, static}

	if got := toolNames(t, mcpClient(t, url, full)); got != "echo,write" {
		t.Errorf("full token lists %s", got)
	}
	if got := toolNames(t, mcpClient(t, url, ro)); got != "echo" {
		t.Errorf("read-only token lists %s, want echo only", got)
	}
	if got := toolNames(t, mcpClient(t, url, static)); got != "echo,write" {
		t.Errorf("static token lists %s (MCPFLEET_AUTH_TOKENS must keep working)", got)
	}
	resp, body := postAuth(t, url, callWrite, ro)
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="testsrv:write"`) {
		t.Errorf("read-only token calling write: %d %s %s", resp.StatusCode, ch, body)
	}
	for _, tok := range []string{full, ro} {
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "echo", map[string]any{"msg": "hi"}
		if res, err := mcpClient(t, url, tok).CallTool(ctx, req); err != nil || res.IsError {
			t.Errorf("echo: %v %+v", err, res)
		}
	}
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = "write", map[string]any{"msg": "x"}
	if res, err := mcpClient(t, url, full).CallTool(ctx, req); err != nil || res.IsError {
		t.Errorf("full token calling write: %v %+v", err, res)
	}

	// What an invalid static token gets, every invalid issued token gets.
	resp, want := postAuth(t, url, callWrite, "not-a-token-0123456789")
	wantCh := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != 401 || wantCh != `Bearer realm="mcpfleet"` {
		t.Fatalf("invalid static token: %d %s", resp.StatusCode, wantCh)
	}
	if ok, err := st.Revoke(ctx, fullTok.ID, time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	time.Sleep(1100 * time.Millisecond) // carol's second
	for name, tok := range map[string]string{
		"revoked": full, "revoked, replayed": full, "expired": short, "another server's": other,
		"unknown": issued.Prefix + strings.Repeat("x", len(full)-len(issued.Prefix)), "malformed": full[:len(full)-2],
	} {
		resp, body := postAuth(t, url, callWrite, tok)
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != wantCh || body != want {
			t.Errorf("%s token: %d %s %s, want 401 as for an invalid static token", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
		}
	}
	if resp, _ := postAuth(t, url, callWrite, ro); resp.StatusCode != 403 {
		t.Errorf("bob's token stopped working after alice's revocation: %d", resp.StatusCode)
	}
	time.Sleep(50 * time.Millisecond)
	l := logs.String()
	if !strings.Contains(l, "issued#alice") || !strings.Contains(l, "issued#bob") {
		t.Errorf("calls not logged as issued#<user>")
	}
	for _, s := range secrets {
		if strings.Contains(l, s) || strings.Contains(l, issued.Hash(s)) {
			t.Errorf("a token (%.8s…) or its hash is in the logs", s)
		}
	}
}

// A state file holding tokens turns nothing on by itself: without
// MCPFLEET_AUTH_ISSUED an issued token is just an unknown token.
func TestIssuedTokensAreOptIn(t *testing.T) {
	dir := t.TempDir()
	_, st, _ := issuedServer(t, dir, "static-0123456789abcdef")
	tok, _, err := issued.Issue(context.Background(), st, "testsrv", "alice", nil, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("MCPFLEET_AUTH_ISSUED", "0")
	o, err := serve.ParseOptions(testApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := serve.Build(context.Background(), testApp(), o, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(serve.HTTPHandler(b))
	defer ts.Close()
	if resp, _ := postAuth(t, ts.URL+"/mcp", callWrite, tok); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("issued token without MCPFLEET_AUTH_ISSUED: %d", resp.StatusCode)
	}
}

func TestIssuedTokensNeedSharedState(t *testing.T) {
	t.Setenv("MCPFLEET_AUTH_ISSUED", "1")
	t.Setenv("MCPFLEET_STATE", "memory")
	o, err := serve.ParseOptions(testApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := serve.Build(context.Background(), testApp(), o, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "MCPFLEET_REDIS_URL") {
		t.Fatalf("Build with issued tokens and memory state: %v", err)
	}
	t.Setenv("MCPFLEET_AUTH_ISSUED", "yes please")
	if _, err := serve.ParseOptions(testApp(), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "MCPFLEET_AUTH_ISSUED") {
		t.Fatalf("a bad MCPFLEET_AUTH_ISSUED: %v", err)
	}
}
