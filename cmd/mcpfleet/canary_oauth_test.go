package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/auth/authtest"
	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestNoSecretsLeakWithOAuth runs every server as an OAuth resource server of
// a real OpenID provider (pkg/auth/authtest), with its canary secrets, a
// metrics listener and an introspection secret: access tokens (valid,
// tampered, for another audience, opaque), issued tokens (`mcpfleet token`,
// beside OAuth: one valid, one revoked) and their hashes, the introspection
// secret and the canaries appear in no result, log line, refusal or metric.
func TestNoSecretsLeakWithOAuth(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			p := authtest.Start(t, authtest.Client{ID: "jwt-user", Secret: "jwt-secret-0123456789", JWT: true},
				authtest.Client{ID: "opaque-user", Secret: "opaque-secret-0123456789"})
			addr, metricsAddr := freePort(t), freePort(t)
			public := "http://" + addr + "/mcp"
			env := append(serverEnv(t, bins, s.Name), "MCPFLEET_OAUTH_ISSUER="+p.Issuer, "MCPFLEET_PUBLIC_URL="+public,
				"MCPFLEET_OAUTH_CLIENT_ID="+p.IntrospectionClient, "MCPFLEET_OAUTH_CLIENT_SECRET="+p.IntrospectionSecret,
				"MCPFLEET_METRICS_ADDR="+metricsAddr, "MCPFLEET_AUTH_ISSUED=1", "MCPFLEET_STATE_DIR="+t.TempDir())
			issuedTok, _ := issueToken(t, env, "--server", s.Name, "--user", "canary-team")
			revokedTok, revokedID := issueToken(t, env, "--server", s.Name, "--user", "canary-gone")
			if code, _, errOut := tokenCLI(t, env, "revoke", "--server", s.Name, revokedID); code != 0 {
				t.Fatalf("token revoke: %s", errOut)
			}
			var stderr servetest.Buffer
			cmd := exec.Command(filepath.Join(bins, s.Name), "--transport", "http", "--addr", addr)
			cmd.Env, cmd.Stderr = env, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			for i := 0; ; i++ {
				if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
					r.Body.Close()
					break
				}
				if i == 400 {
					t.Fatalf("%s did not start: %s", s.Name, stderr.String())
				}
				time.Sleep(25 * time.Millisecond)
			}
			scopes := []string{s.Name + ":write"}
			jwtTok := p.Token(t, "jwt-user", "jwt-secret-0123456789", public, scopes...)
			opaque := p.Token(t, "opaque-user", "opaque-secret-0123456789", public, scopes...)
			foreign := p.Token(t, "jwt-user", "jwt-secret-0123456789", "https://other.example/mcp", scopes...)
			tampered := jwtTok[:len(jwtTok)-6] + "AAAAAA"
			secrets := append([]string{jwtTok, opaque, foreign, tampered, p.IntrospectionSecret,
				issuedTok, revokedTok, issued.Hash(issuedTok), issued.Hash(revokedTok)}, canaries...)

			var seen []string // results and refusals
			for _, bad := range []string{foreign, tampered, "not-a-real-token-0123456789", revokedTok, revokedTok} {
				req, _ := http.NewRequest(http.MethodPost, public, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Authorization", "Bearer "+bad)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Errorf("bad token: HTTP %d", resp.StatusCode)
				}
				seen = append(seen, string(b), resp.Header.Get("WWW-Authenticate"))
			}
			for _, tok := range []string{jwtTok, opaque, issuedTok} {
				tr, err := transport.NewStreamableHTTP(public, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
				if err != nil {
					t.Fatal(err)
				}
				c := client.NewClient(tr)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				if err := c.Start(ctx); err != nil {
					t.Fatal(err)
				}
				if err := servetest.Initialize(ctx, c, ""); err != nil {
					t.Fatal(err)
				}
				list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				for _, tool := range list.Tools {
					args := happyArgs[s.Name][tool.Name]
					if args == nil {
						args = map[string]any{}
					}
					var req mcp.CallToolRequest
					req.Params.Name, req.Params.Arguments = tool.Name, args
					cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
					res, err := c.CallTool(cctx, req)
					ccancel()
					if err != nil {
						seen = append(seen, err.Error())
						continue
					}
					b, _ := json.Marshal(res)
					seen = append(seen, string(b))
				}
				_ = c.Close()
				cancel()
			}
			resp, err := http.Get("http://" + metricsAddr + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			m, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(m), "mcpfleet_tool_calls_total") {
				t.Errorf("no tool call series in /metrics")
			}
			time.Sleep(100 * time.Millisecond) // let stderr drain
			logs := stderr.String()
			for _, sec := range secrets {
				if strings.Contains(logs, sec) {
					t.Errorf("a secret (%.6s…) is in the logs", sec)
				}
				if strings.Contains(string(m), sec) {
					t.Errorf("a secret (%.6s…) is in /metrics", sec)
				}
				for _, r := range seen {
					if strings.Contains(r, sec) {
						t.Errorf("a secret (%.6s…) is in a result or refusal: %.200s", sec, r)
					}
				}
			}
			if !strings.Contains(logs, "issued#canary-team") {
				t.Errorf("the issued token's calls were not logged as issued#canary-team")
			}
			if !strings.Contains(logs, p.Issuer+"#jwt-user") {
				t.Errorf("the calls were not logged as the token's user")
			}
		})
	}
}
