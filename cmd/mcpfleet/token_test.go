package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// tokenCLI runs `mcpfleet token args...` in this process with the
// environment env (KEY=value, the last one wins).
func tokenCLI(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = tokenCommand(args, func(k string) string { return envValue(env, k) }, &out, &errb)
	return code, out.String(), errb.String()
}

// issueToken issues a token with the CLI and returns the secret and its id.
func issueToken(t *testing.T, env []string, args ...string) (secret, id string) {
	t.Helper()
	code, out, errOut := tokenCLI(t, env, append([]string{"issue", "--json"}, args...)...)
	var got struct{ Token, ID string }
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || !issued.LooksIssued(got.Token) || len(got.ID) != 8 {
		t.Fatalf("token issue %v: %d %s %s", args, code, out, errOut)
	}
	return got.Token, got.ID
}

// TestTokenCLI: issue shows the token once (stdout, nothing else there),
// list never shows a token or its hash, revoke by id and by user, on the
// state file and on Redis.
func TestTokenCLI(t *testing.T) {
	backends := map[string]func(t *testing.T) []string{
		"state file": func(t *testing.T) []string { return []string{"MCPFLEET_STATE_DIR=" + t.TempDir()} },
		"redis": func(t *testing.T) []string {
			return []string{"MCPFLEET_REDIS_URL=redis://" + redistest.StartServer(t).Addr() + "/3"}
		},
	}
	for name, envOf := range backends {
		t.Run(name, func(t *testing.T) {
			env := envOf(t)
			code, secret, notes := tokenCLI(t, env, "issue", "--server", "ziwei", "--user", "alice", "--expires", "30d")
			secret = strings.TrimSuffix(secret, "\n")
			if code != 0 || !issued.LooksIssued(secret) {
				t.Fatalf("issue: %d %q %s", code, secret, notes)
			}
			if !strings.Contains(notes, "shown once") || strings.Contains(notes, secret) {
				t.Fatalf("issue's notes (stderr) must say the token is shown once, without it: %s", notes)
			}
			ro, roID := issueToken(t, env, "--server", "ziwei", "--user", "bob", "--scopes", "read")
			other, _ := issueToken(t, env, "--server", "chartimg", "--user", "alice")
			secrets := []string{secret, ro, other}
			noSecret := func(what, s string) {
				t.Helper()
				for _, sec := range secrets {
					if strings.Contains(s, sec) || strings.Contains(s, issued.Hash(sec)) || strings.Contains(s, sec[len(issued.Prefix):len(issued.Prefix)+8]) {
						t.Fatalf("%s shows a token or its hash: %s", what, s)
					}
				}
			}
			code, list, _ := tokenCLI(t, env, "list", "--server", "ziwei")
			noSecret("list", list)
			if code != 0 || !strings.Contains(list, roID) || !strings.Contains(list, "alice") || strings.Count(list, "active") != 2 || strings.Contains(list, "chartimg") {
				t.Fatalf("list: %d\n%s", code, list)
			}
			code, js, _ := tokenCLI(t, env, "list", "--server", "ziwei", "--json")
			noSecret("list --json", js)
			var rows []struct{ ID, User, Status string }
			if code != 0 || json.Unmarshal([]byte(js), &rows) != nil || len(rows) != 2 {
				t.Fatalf("list --json: %d %s", code, js)
			}

			if code, out, errOut := tokenCLI(t, env, "revoke", roID, "--server", "ziwei"); code != 0 || !strings.Contains(out, "revoked "+roID) {
				t.Fatalf("revoke %s: %d %s %s", roID, code, out, errOut)
			}
			if code, out, errOut := tokenCLI(t, env, "revoke", "--server", "ziwei", "--user", "alice"); code != 0 || strings.Count(out, "revoked ") != 1 {
				t.Fatalf("revoke --user alice: %d %s %s", code, out, errOut)
			}
			_, list, _ = tokenCLI(t, env, "list", "--server", "ziwei")
			if strings.Count(list, "revoked") != 2 {
				t.Fatalf("after revoking both:\n%s", list)
			}
			if _, list, _ = tokenCLI(t, env, "list", "--server", "chartimg"); !strings.Contains(list, "active") {
				t.Fatalf("revoking ziwei's alice revoked chartimg's:\n%s", list)
			}
			for _, c := range []struct {
				args []string
				code int
				want string
			}{
				{[]string{"revoke", "--server", "ziwei", "00000000"}, 1, "token list"},
				{[]string{"revoke", "--server", "ziwei", "--user", "nobody"}, 1, "no active token"},
				{[]string{"issue", "--server", "ziwei", "--user", "x", "--scopes", "admin"}, 1, "ziwei:read"},
				{[]string{"issue", "--server", "ziwei", "--user", "x", "--expires", "forever"}, 2, "--expires"},
				{[]string{"issue", "--server", "nope", "--user", "x"}, 2, "mcpfleet list"},
				{[]string{"issue", "--server", "ziwei"}, 2, "usage"},
				{[]string{"revoke", "--server", "ziwei"}, 2, "usage"},
				{[]string{"burn", "--server", "ziwei"}, 2, "unknown token command"},
			} {
				if code, out, errOut := tokenCLI(t, env, c.args...); code != c.code || !strings.Contains(errOut, c.want) || out != "" && c.code == 2 {
					t.Errorf("token %v: %d %s %s; want %d and %q", c.args, code, out, errOut, c.code, c.want)
				}
			}
		})
	}
	t.Run("doctor counts active tokens", func(t *testing.T) {
		env := []string{"MCPFLEET_STATE_DIR=" + t.TempDir()}
		if _, _, err := activeTokens("ziwei", func(k string) string { return envValue(env, k) }); err == nil || !strings.Contains(err.Error(), "no state file") {
			t.Fatalf("no tokens yet: %v", err)
		}
		issueToken(t, env, "--server", "ziwei", "--user", "a")
		_, id := issueToken(t, env, "--server", "ziwei", "--user", "b")
		issueToken(t, env, "--server", "ziwei", "--user", "c", "--expires", "1s")
		tokenCLI(t, env, "revoke", "--server", "ziwei", id)
		time.Sleep(1100 * time.Millisecond)
		if n, where, err := activeTokens("ziwei", func(k string) string { return envValue(env, k) }); n != 1 || err != nil || !strings.HasSuffix(where, "ziwei.db") {
			t.Fatalf("activeTokens: %d %s %v, want 1 (one revoked, one expired)", n, where, err)
		}
	})
	t.Run("memory state", func(t *testing.T) {
		code, _, errOut := tokenCLI(t, []string{"MCPFLEET_STATE=memory"}, "issue", "--server", "ziwei", "--user", "a")
		if code != 1 || !strings.Contains(errOut, "MCPFLEET_REDIS_URL") {
			t.Fatalf("issue with memory state: %d %s", code, errOut)
		}
	})
}

// listedTools are the tool names of a tools/list answer (JSON or SSE).
func listedTools(t *testing.T, body string) map[string]bool {
	t.Helper()
	if i := strings.Index(body, "data:"); i >= 0 && !strings.HasPrefix(strings.TrimSpace(body), "{") {
		body = strings.TrimSpace(body[i+len("data:"):])
	}
	var msg struct {
		Result struct{ Tools []struct{ Name string } }
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatalf("tools/list answer: %v: %.300s", err, body)
	}
	names := map[string]bool{}
	for _, tl := range msg.Result.Tools {
		names[tl.Name] = true
	}
	return names
}

// callEach sends body with token straight to each replica (no proxy).
func callEach(t *testing.T, p pair, token, body string) []answer {
	t.Helper()
	var out []answer
	for i, r := range p.backends {
		a, err := mcpTry(r.url.String(), http.MethodPost, token, "", body, true)
		if err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
		a.replica = fmt.Sprint(i)
		out = append(out, a)
	}
	return out
}

// revokedOnEveryReplica issues a token for server with the CLI on the
// replicas' shared state, proves it works on each replica, revokes it and
// proves that the next request, and a replay after it, is 401 on each.
func revokedOnEveryReplica(t *testing.T, server string, p pair, env []string, read toolCall) {
	t.Helper()
	secret, id := issueToken(t, env, "--server", server, "--user", "dave")
	for _, a := range callEach(t, p, secret, callBody(read, true)) {
		// Any tool answer will do: shoonya's, for one, is "log in first" for a new user.
		if a.code != http.StatusOK || !parseTool(a.body).ok {
			t.Fatalf("issued token: %s on replica %s: %d %.300s", read.tool, a.replica, a.code, a.body)
		}
	}
	if code, out, errOut := tokenCLI(t, env, "revoke", "--server", server, id); code != 0 {
		t.Fatalf("token revoke: %d %s %s", code, out, errOut)
	}
	for round, what := range []string{"the next request", "a replay"} {
		for _, a := range callEach(t, p, secret, callBody(read, true)) {
			if a.code != http.StatusUnauthorized {
				t.Fatalf("revoked token, %s (round %d) on replica %s: %d %.300s", what, round, a.replica, a.code, a.body)
			}
		}
	}
	for i, r := range p.backends {
		if l := r.stderr.String(); strings.Contains(l, secret) || strings.Contains(l, issued.Hash(secret)) {
			t.Fatalf("replica %d logged the issued token or its hash", i)
		}
	}
}

// TestTokenReplicas: two ziwei processes share the issued tokens through
// Redis, and two through one state file. A token works on both; after
// `mcpfleet token revoke` the next request on each is 401, and so is a
// replay; an expired token is 401 on both; a read-only token does not list
// the write tools and is refused them with 403 insufficient_scope; the
// static MCPFLEET_AUTH_TOKENS token keeps working beside them.
func TestTokenReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	shared := map[string]func(t *testing.T) []string{
		"redis": func(t *testing.T) []string {
			return []string{"MCPFLEET_REDIS_URL=redis://" + redistest.StartServer(t).Addr() + "/0"}
		},
		"state file": func(t *testing.T) []string { return []string{"MCPFLEET_STATE_DIR=" + t.TempDir()} },
	}
	for name, sharedEnv := range shared {
		t.Run(name, func(t *testing.T) {
			env := append(append(serverEnv(t, bins, "ziwei"), "MCPFLEET_AUTH_ISSUED=1", "MCPFLEET_LOG_LEVEL=info"), sharedEnv(t)...)
			p := startPair(t, filepath.Join(bins, "ziwei"), env)
			read := toolCall{"query_star_combination_meaning", `{}`}
			write := toolCall{"store_star_combination_meaning", `{"name":"x","stars":["紫微"],"meaning":"m"}`}

			full, _ := issueToken(t, env, "--server", "ziwei", "--user", "alice")
			ro, _ := issueToken(t, env, "--server", "ziwei", "--user", "bob", "--scopes", "read")
			short, _ := issueToken(t, env, "--server", "ziwei", "--user", "carol", "--expires", "2s")
			issuedAt := time.Now()
			secrets := []string{full, ro, short}

			for _, a := range callEach(t, p, full, listBody(true)) {
				wantOK(t, "tools/list (full token)", a, "store_star_combination_meaning")
				if !listedTools(t, a.body)["store_star_combination_meaning"] {
					t.Fatalf("a full token does not list the write tools on replica %s", a.replica)
				}
			}
			for _, a := range callEach(t, p, ro, listBody(true)) {
				wantOK(t, "tools/list (read-only token)", a, read.tool)
				names := listedTools(t, a.body)
				if !names[read.tool] || names["store_star_combination_meaning"] || names["delete_star_combination_meaning"] {
					t.Fatalf("a read-only token lists %v on replica %s", names, a.replica)
				}
			}
			for _, a := range callEach(t, p, ro, callBody(write, true)) {
				if a.code != http.StatusForbidden || !strings.Contains(a.body, "ziwei:write") {
					t.Fatalf("read-only token calling %s on replica %s: %d %.300s", write.tool, a.replica, a.code, a.body)
				}
			}
			for _, tok := range []string{full, short, canaryToken} {
				for _, a := range callEach(t, p, tok, callBody(read, true)) {
					wantOK(t, read.tool, a, `"result"`)
				}
			}

			revokedOnEveryReplica(t, "ziwei", p, env, read)

			time.Sleep(time.Until(issuedAt.Add(3 * time.Second))) // past carol's 2 s (stored to the second)
			for _, a := range callEach(t, p, short, callBody(read, true)) {
				if a.code != http.StatusUnauthorized {
					t.Fatalf("expired token on replica %s: %d %.300s", a.replica, a.code, a.body)
				}
			}
			for _, a := range callEach(t, p, ro, callBody(read, true)) {
				wantOK(t, "read-only token after other tokens ended", a, `"result"`)
			}
			_, list, _ := tokenCLI(t, env, "list", "--server", "ziwei")
			if !strings.Contains(list, "expired") || !strings.Contains(list, "revoked") {
				t.Fatalf("list after revoke and expiry:\n%s", list)
			}
			for i, r := range p.backends {
				if !r.stderr.WaitFor("issued#bob", 5*time.Second) {
					t.Errorf("replica %d did not log calls as issued#bob", i)
				}
				l := r.stderr.String()
				for _, s := range secrets {
					if strings.Contains(l, s) || strings.Contains(l, issued.Hash(s)) {
						t.Fatalf("replica %d logged an issued token or its hash", i)
					}
				}
			}
		})
	}
}
