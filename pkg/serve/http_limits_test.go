package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

const tokA, tokB = "tok-aaaaaaaaaaaaaaaa", "tok-bbbbbbbbbbbbbbbb"

type reply struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, method, url, body string, hdr map[string]string) reply {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b = []byte("(stream)")
	} else {
		b, _ = io.ReadAll(resp.Body)
	}
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// initSession opens a legacy session for the bearer token tok.
func initSession(t *testing.T, url, tok string) (string, reply) {
	t.Helper()
	r := do(t, http.MethodPost, url+"/mcp", initBody, map[string]string{"Authorization": "Bearer " + tok})
	return r.header.Get("Mcp-Session-Id"), r
}

func legacyHdr(tok, sid string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + tok, "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}
}

// TestHTTPProtocolDetails: JSON-RPC ids and batches and the session gate, one row each.
func TestHTTPProtocolDetails(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA + ",bob=" + tokB})
	aliceSID, r := initSession(t, ts.URL, tokA)
	if r.status != 200 || aliceSID == "" {
		t.Fatalf("initialize: %d %q", r.status, r.body)
	}
	deadSID, _ := initSession(t, ts.URL, tokA)
	if got := do(t, http.MethodDelete, ts.URL+"/mcp", "", legacyHdr(tokA, deadSID)).status; got != 200 {
		t.Fatalf("DELETE: %d", got)
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	auth := map[string]string{"Authorization": "Bearer " + tokA}
	cases := []struct {
		name, method, body string
		hdr                map[string]string
		status             int
		want               string // in the body
	}{
		{"GET accepts only JSON", "GET", "", map[string]string{"Authorization": "Bearer " + tokA, "Accept": "application/json", "Mcp-Session-Id": aliceSID}, 406, "text/event-stream"},
		{"GET for an event stream", "GET", "", map[string]string{"Authorization": "Bearer " + tokA, "Accept": "text/event-stream", "Mcp-Session-Id": aliceSID}, 200, "(stream)"},
		{"batch", "POST", "[" + list + "]", legacyHdr(tokA, aliceSID), 400, "batches are not supported"},
		{"object id", "POST", `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, legacyHdr(tokA, aliceSID), 400, `"id":null`},
		{"array id", "POST", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, legacyHdr(tokA, aliceSID), 400, "id must be a string or a number"},
		{"bool id", "POST", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, legacyHdr(tokA, aliceSID), 400, `"code":-32600`},
		{"no session id", "POST", list, map[string]string{"Authorization": "Bearer " + tokA, "Mcp-Protocol-Version": "2025-11-25"}, 400, "Mcp-Session-Id header is required"},
		{"no session id, no version header", "POST", list, auth, 400, "Mcp-Session-Id header is required"},
		{"own session", "POST", list, legacyHdr(tokA, aliceSID), 200, `"tools"`},
		{"another user's session", "POST", list, legacyHdr(tokB, aliceSID), 404, ""},
		{"another user's DELETE", "DELETE", "", legacyHdr(tokB, aliceSID), 404, ""},
		{"terminated session", "POST", list, legacyHdr(tokA, deadSID), 404, ""},
		{"made-up session", "POST", list, legacyHdr(tokA, "mcp-session-nope"), 404, ""},
		// MCP Session Management: a terminated or unknown session is 404 on
		// every method; mcp-go would open a stream for any id on GET and
		// answer 200 to any DELETE.
		{"GET of a terminated session", "GET", "", map[string]string{"Authorization": "Bearer " + tokA, "Accept": "text/event-stream", "Mcp-Protocol-Version": "2025-11-25", "Mcp-Session-Id": deadSID}, 404, ""},
		{"GET of a made-up session", "GET", "", map[string]string{"Authorization": "Bearer " + tokA, "Accept": "text/event-stream", "Mcp-Protocol-Version": "2025-11-25", "Mcp-Session-Id": "mcp-session-nope"}, 404, ""},
		{"DELETE of a terminated session", "DELETE", "", legacyHdr(tokA, deadSID), 404, ""},
		{"DELETE of a made-up session", "DELETE", "", legacyHdr(tokA, "mcp-session-nope"), 404, ""},
		{"modern request needs no session", "POST", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`,
			map[string]string{"Authorization": "Bearer " + tokA, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, 200, `"tools"`},
		{"oversized initialize", "POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":"` + strings.Repeat("c", 70<<10) + `"},"clientInfo":{"name":"t","version":"1"}}}`,
			auth, 400, "initialize params are"},
		{"initialize still fine", "POST", initBody, auth, 200, `"protocolVersion"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, tc.method, ts.URL+"/mcp", tc.body, tc.hdr)
			if r.status != tc.status || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %q, want %d with %q", r.status, r.body, tc.status, tc.want)
			}
			if strings.Contains(r.body, `"x":1`) {
				t.Fatalf("the object id was echoed: %s", r.body)
			}
		})
	}
}

// TestHTTPOriginCase: scheme and host compare case-insensitively; look-alikes do not pass.
func TestHTTPOriginCase(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_ALLOWED_ORIGINS": "https://App.Example.com"})
	cases := []struct {
		origin string
		want   int
	}{
		{"http://localhost", 200},
		{"HTTP://LOCALHOST", 200},
		{"Http://LocalHost:6274", 200},
		{"http://127.0.0.1:3000", 200},
		{"http://[::1]:3000", 200},
		{"https://app.example.com", 200},
		{"HTTPS://APP.EXAMPLE.COM/", 200},
		{"http://localhost.evil.example", 403},
		{"http://evil.example/localhost", 403},
		{"http://localhost@evil.example", 403},
		{"null", 403},
		{"file://localhost", 403},
		{"https://app.example.com.evil", 403},
	}
	for _, tc := range cases {
		t.Run(tc.origin, func(t *testing.T) {
			if got := do(t, http.MethodPost, ts.URL+"/mcp", initBody, map[string]string{"Origin": tc.origin}).status; got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
		})
	}
}

// rawRequest writes head (and body) on a new connection and returns the
// status line and whether the server closed the connection, within wait.
func rawRequest(t *testing.T, addr, head, body string, wait time.Duration) (status string, closed bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, head+body); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(wait))
	br := bufio.NewReader(c)
	status, err = br.ReadString('\n')
	if err != nil {
		return "", false
	}
	resp, err := http.ReadResponse(bufio.NewReader(io.MultiReader(strings.NewReader(status), br)), nil)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	_, err = br.ReadByte()
	return strings.TrimSpace(status), err == io.EOF
}

// TestHTTPRefusesBeforeReading: no Origin/token check waits for the body; a
// declared oversized body is refused from its Content-Length; a slow body is
// cut at the body deadline; each refusal closes the connection.
func TestHTTPRefusesBeforeReading(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA, "MCPFLEET_HTTP_BODY_TIMEOUT": "500ms"})
	addr := strings.TrimPrefix(ts.URL, "http://")
	head := func(extra string, length int) string {
		return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: %d\r\n\r\n", addr, extra, length)
	}
	cases := []struct {
		name, head, body string
		want             string
	}{
		{"no token, 4 MiB declared, nothing sent", head("", 4<<20-1), "", "401"},
		{"foreign origin, nothing sent", head("Origin: http://evil.example\r\n", 4<<20-1), "", "403"},
		{"no token, small body dripping", head("", 1000), "{", "401"},
		{"over 4 MiB declared", head("Authorization: Bearer "+tokA+"\r\n", 5<<20), "", "413"},
		{"slow body", head("Authorization: Bearer "+tokA+"\r\n", 100), `{"jsonrpc":`, "408"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, closed := rawRequest(t, addr, tc.head, tc.body, 5*time.Second)
			if !strings.Contains(status, " "+tc.want+" ") || !closed {
				t.Fatalf("status %q closed %v, want %s and a closed connection", status, closed, tc.want)
			}
		})
	}
	// Chunked bodies have no Content-Length: the streaming limit answers 413.
	// Its own server with a long body deadline, so a loaded machine that
	// takes longer than 500 ms to push 5 MiB still meets the size limit first.
	ts = httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA, "MCPFLEET_HTTP_BODY_TIMEOUT": "60s"})
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", io.MultiReader(strings.NewReader(initBody), strings.NewReader(strings.Repeat(" ", 5<<20))))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+tokA)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Fatalf("chunked 5 MiB: %d", resp.StatusCode)
		}
	} // else: the server closed while we were still sending, which is also a refusal
}

// TestHTTPSessionLimits: per-user and total caps answer clearly; DELETE and
// idle expiry give the slots back.
func TestHTTPSessionLimits(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA + ",bob=" + tokB,
		"MCPFLEET_HTTP_MAX_SESSIONS_PER_USER": "2", "MCPFLEET_HTTP_MAX_SESSIONS": "3", "MCPFLEET_HTTP_SESSION_IDLE_TTL": "1s"})
	a1, _ := initSession(t, ts.URL, tokA)
	_, _ = initSession(t, ts.URL, tokA)
	_, r := initSession(t, ts.URL, tokA)
	if r.status != 429 || !strings.Contains(r.body, "too many open sessions for this user") || r.header.Get("Retry-After") == "" {
		t.Fatalf("third session of alice: %d %q", r.status, r.body)
	}
	if _, r = initSession(t, ts.URL, tokB); r.status != 200 {
		t.Fatalf("bob's first: %d %q", r.status, r.body)
	}
	_, r = initSession(t, ts.URL, tokB)
	var e struct {
		ID    json.RawMessage `json:"id"`
		Error struct{ Code int }
	}
	_ = json.Unmarshal([]byte(r.body), &e)
	if r.status != 503 || !strings.Contains(r.body, "maximum of 3 sessions") || string(e.ID) != "1" || e.Error.Code != -32000 {
		t.Fatalf("fourth session in total: %d %q", r.status, r.body)
	}
	do(t, http.MethodDelete, ts.URL+"/mcp", "", legacyHdr(tokA, a1))
	if _, r = initSession(t, ts.URL, tokB); r.status != 200 {
		t.Fatalf("after a DELETE: %d %q", r.status, r.body)
	}
	// Idle expiry (TTL 1s, swept every second): all slots come back.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, r = initSession(t, ts.URL, tokA)
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sessions never expired: %d %q", r.status, r.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestLimitsFromEnv(t *testing.T) {
	cases := []struct{ env, val, want string }{
		{"MCPFLEET_HTTP_MAX_CONNS", "many", "positive integer"},
		{"MCPFLEET_HTTP_MAX_BODY_BYTES", "-1", "positive integer"},
		{"MCPFLEET_HTTP_BODY_TIMEOUT", "30", "positive duration"},
		{"MCPFLEET_STDIO_MAX_LINE_BYTES", "0", "positive integer"},
	}
	for _, tc := range cases {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(tc.env, tc.val)
			code, stderr := runArgs(t, "--transport", "http")
			if code == 0 || !strings.Contains(stderr, tc.env) || !strings.Contains(stderr, tc.want) {
				t.Fatalf("code %d stderr %q", code, stderr)
			}
		})
	}
}

func runArgs(t *testing.T, args ...string) (int, string) {
	var stderr strings.Builder
	code := serve.Run(context.Background(), testApp(), args, strings.NewReader(""), io.Discard, &stderr)
	return code, stderr.String()
}
