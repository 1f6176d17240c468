package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/auth/authtest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// oauthServer serves testApp behind OAuth for issuer p; the public URL is
// the server's own /mcp.
func oauthServer(t *testing.T, p *authtest.Provider, extra map[string]string) (ts *httptest.Server, public string, logs *servetest.Buffer) {
	return oauthServerOf(t, testApp(), p, extra)
}

func oauthServerOf(t *testing.T, app serve.App, p *authtest.Provider, extra map[string]string) (ts *httptest.Server, public string, logs *servetest.Buffer) {
	t.Helper()
	ts = httptest.NewUnstartedServer(nil)
	public = "http://" + ts.Listener.Addr().String() + "/mcp"
	env := map[string]string{
		"MCPFLEET_OAUTH_ISSUER": p.Issuer, "MCPFLEET_PUBLIC_URL": public,
		"MCPFLEET_OAUTH_CLIENT_ID": p.IntrospectionClient, "MCPFLEET_OAUTH_CLIENT_SECRET": p.IntrospectionSecret,
	}
	for k, v := range extra {
		env[k] = v
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	o, err := serve.ParseOptions(app, []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs = &servetest.Buffer{}
	log, err := serve.NewLogger(logs, "debug")
	if err != nil {
		t.Fatal(err)
	}
	b, err := serve.Build(context.Background(), app, o, log)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = serve.HTTPHandler(b)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, public, logs
}

func postAuth(t *testing.T, url, body, token string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if strings.Contains(body, "tools/call") { // stateless, no initialize first
		req.Header.Set("MCP-Protocol-Version", mcp.LATEST_PROTOCOL_VERSION)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func mcpClient(t *testing.T, url, token string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	return c
}

func toolNames(t *testing.T, c *client.Client) string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

const callWrite = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write","arguments":{"msg":"x"}}}`

// TestOAuthEndToEnd runs the server as an OAuth resource server of a real
// OpenID provider (zitadel/oidc's op on loopback), with tokens from the
// provider's token endpoint.
func TestOAuthEndToEnd(t *testing.T) {
	p := authtest.Start(t,
		authtest.Client{ID: "alice", Secret: "alice-secret", JWT: true},
		authtest.Client{ID: "bob", Secret: "bob-secret"},
		authtest.Client{ID: "late", Secret: "late-secret", JWT: true, Lifetime: -time.Hour})
	other := authtest.Start(t, authtest.Client{ID: "alice", Secret: "alice-secret", JWT: true})
	const static = "static-0123456789abcdef"
	ts, public, logs := oauthServer(t, p, map[string]string{"MCPFLEET_AUTH_TOKENS": "ops=" + static})
	var issued []string // every token and secret used, none of which may reach the logs
	defer func() {
		for _, s := range append(issued, static, p.IntrospectionSecret) {
			if strings.Contains(logs.String(), s) {
				t.Errorf("a token or secret is in the logs")
			}
		}
	}()
	prm := ts.URL + "/.well-known/oauth-protected-resource/mcp"

	t.Run("401 points at the metadata", func(t *testing.T) {
		resp, _ := postAuth(t, public, initBody, "")
		want := `Bearer resource_metadata="` + prm + `", scope="testsrv:read"`
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Fatalf("%d %q, want 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
		for _, u := range []string{prm, ts.URL + "/.well-known/oauth-protected-resource"} {
			r, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Resource string   `json:"resource"`
				AS       []string `json:"authorization_servers"`
				Scopes   []string `json:"scopes_supported"`
			}
			err = json.NewDecoder(r.Body).Decode(&m)
			r.Body.Close()
			if err != nil || m.Resource != public || len(m.AS) != 1 || m.AS[0] != p.Issuer || strings.Join(m.Scopes, " ") != "testsrv:read" {
				t.Fatalf("%s: %+v %v", u, m, err)
			}
		}
	})

	alice := p.Token(t, "alice", "alice-secret", public, "testsrv:read")
	refused := map[string]string{
		"wrong audience": p.Token(t, "alice", "alice-secret", "https://other.example/mcp", "testsrv:read"),
		"expired":        p.Token(t, "late", "late-secret", public, "testsrv:read"),
		"tampered":       alice[:len(alice)-4] + "AAAA",
		"other issuer":   other.Token(t, "alice", "alice-secret", public, "testsrv:read"),
		"malformed":      "x.y",
	}
	issued = append(issued, alice)
	for name, tok := range refused {
		issued = append(issued, tok)
		t.Run(name+" is 401", func(t *testing.T) {
			resp, body := postAuth(t, public, initBody, tok)
			ch := resp.Header.Get("WWW-Authenticate")
			if resp.StatusCode != 401 || !strings.Contains(ch, `error="invalid_token"`) || !strings.Contains(ch, prm) {
				t.Fatalf("%d %q", resp.StatusCode, ch)
			}
			if strings.Contains(body, tok) || strings.Contains(ch, tok) {
				t.Fatal("the refusal quotes the token")
			}
		})
	}

	t.Run("token without any server scope is 403", func(t *testing.T) {
		resp, _ := postAuth(t, public, initBody, p.Token(t, "alice", "alice-secret", public, "openid"))
		if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="testsrv:read"`) {
			t.Fatalf("%d %q", resp.StatusCode, ch)
		}
	})

	t.Run("read token: read tools only, write is a step-up 403", func(t *testing.T) {
		c := mcpClient(t, public, alice)
		if got := toolNames(t, c); got != "echo" {
			t.Fatalf("tools/list = %s, want echo only", got)
		}
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "echo", map[string]any{"msg": "hi"}
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got := servetest.Decode[echoOut](t, res).User; got != p.Issuer+"#alice" {
			t.Fatalf("user %q, want issuer#sub", got)
		}
		resp, body := postAuth(t, public, callWrite, alice)
		want := `Bearer resource_metadata="` + prm + `", scope="testsrv:write", error="insufficient_scope"`
		if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.HasPrefix(ch, want) {
			t.Fatalf("%d %q, want 403 %q… (%s)", resp.StatusCode, ch, want, body)
		}
	})

	t.Run("write token calls write", func(t *testing.T) {
		c := mcpClient(t, public, p.Token(t, "alice", "alice-secret", public, "testsrv:write"))
		if got := toolNames(t, c); got != "echo,write" {
			t.Fatalf("tools/list = %s", got)
		}
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "write", map[string]any{"msg": "hi"}
		if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
			t.Fatalf("%v %v", res, err)
		}
	})

	t.Run("opaque token, then revoked", func(t *testing.T) {
		bob := p.Token(t, "bob", "bob-secret", public, "testsrv:read")
		c := mcpClient(t, public, bob)
		var req mcp.CallToolRequest
		req.Params.Name, req.Params.Arguments = "echo", map[string]any{"msg": "hi"}
		res, err := c.CallTool(context.Background(), req)
		if err != nil || servetest.Decode[echoOut](t, res).User != p.Issuer+"#bob" {
			t.Fatalf("%v %v", res, err)
		}
		p.Revoke(t, "bob", "bob-secret", bob)
		if resp, _ := postAuth(t, public, initBody, bob); resp.StatusCode != 401 {
			t.Fatalf("revoked token: %d", resp.StatusCode)
		}
	})

	t.Run("MCPFLEET_AUTH_TOKENS still works", func(t *testing.T) {
		c := mcpClient(t, public, static)
		if got := toolNames(t, c); got != "echo,write" {
			t.Fatalf("tools/list = %s", got)
		}
	})
}

func TestOAuthNeedsBothVariables(t *testing.T) {
	t.Setenv("MCPFLEET_OAUTH_ISSUER", "https://idp.example.com")
	if _, err := serve.ParseOptions(testApp(), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "MCPFLEET_PUBLIC_URL") {
		t.Fatalf("err = %v", err)
	}
}

// A hidden alias of a write tool needs the write scope too.
func TestOAuthAliasNeedsTargetScope(t *testing.T) {
	p := authtest.Start(t, authtest.Client{ID: "alice", Secret: "alice-secret", JWT: true})
	app := testApp()
	register := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error {
		if err := register(ctx, r); err != nil {
			return err
		}
		r.AddAliases(serve.Alias{Name: "old_write", Target: "write"})
		return nil
	}
	_, public, _ := oauthServerOf(t, app, p, nil)
	tok := p.Token(t, "alice", "alice-secret", public, "testsrv:read")
	resp, _ := postAuth(t, public, strings.Replace(callWrite, `"write"`, `"old_write"`, 1), tok)
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(ch, `scope="testsrv:write"`) {
		t.Fatalf("%d %q", resp.StatusCode, ch)
	}
}
