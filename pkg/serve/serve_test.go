package serve_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

type echoIn struct {
	Msg  string `json:"msg" jsonschema:"text to echo" mcp:"minLength=1;maxLength=100"`
	Fail string `json:"fail,omitempty" mcp:"enum=none|invalid|rate|panic|plain|secret"`
}

type echoOut struct {
	Msg  string `json:"msg"`
	User string `json:"user"`
}

const canary = "canary-SECRET-value-123456"

func testApp() serve.App {
	return serve.App{
		Name: "testsrv", Version: "0.0.1", DefaultPort: 8799,
		Register: func(ctx context.Context, r *serve.Registry) error {
			r.AddTools(
				toolkit.New(toolkit.Def{Name: "echo", Description: "Echo msg back.", Toolset: "basic", Hints: toolkit.LocalRead},
					func(ctx context.Context, in echoIn) (echoOut, error) {
						switch in.Fail {
						case "invalid":
							return echoOut{}, envelope.Invalid("msg", "msg is wrong; send another")
						case "rate":
							return echoOut{}, envelope.New(envelope.RateLimited, "slow down").WithRetryAfter(1500 * time.Millisecond)
						case "panic":
							panic("boom")
						case "plain":
							return echoOut{}, errors.New("db exploded at " + canary)
						case "secret":
							return echoOut{}, envelope.New(envelope.UpstreamError, "upstream said no").WithCause(fmt.Errorf("key=%s", canary))
						}
						return echoOut{Msg: in.Msg, User: serve.UserID(ctx)}, nil
					}),
				toolkit.New(toolkit.Def{Name: "write", Description: "Pretend to write.", Toolset: "writes", Hints: toolkit.RemoteDestructive},
					func(ctx context.Context, in echoIn) (echoOut, error) { return echoOut{Msg: "written"}, nil }),
			)
			return nil
		},
	}
}

func TestEnvelopeThroughProtocol(t *testing.T) {
	t.Setenv("TESTSRV_API_KEY", canary)
	c := servetest.New(t, testApp())
	cases := []struct {
		fail      string
		code      envelope.Code
		retryable bool
	}{
		{"invalid", envelope.InvalidArgument, false},
		{"rate", envelope.RateLimited, true},
		{"panic", envelope.Internal, false},
		{"plain", envelope.Internal, false},
		{"secret", envelope.UpstreamError, false},
	}
	var hay []string
	for _, tc := range cases {
		t.Run(tc.fail, func(t *testing.T) {
			res := c.Call(t, "echo", map[string]any{"msg": "hi", "fail": tc.fail})
			body := servetest.ErrorBody(t, res)
			if body.Code != tc.code || body.Retryable != tc.retryable {
				t.Fatalf("got %+v", body)
			}
			if tc.fail == "rate" && (body.RetryAfterS == nil || *body.RetryAfterS != 1.5) {
				t.Fatalf("retry_after_s = %v", body.RetryAfterS)
			}
			hay = append(hay, servetest.ResultJSON(res))
		})
	}
	ok := servetest.Decode[echoOut](t, c.Call(t, "echo", map[string]any{"msg": "hi"}))
	if ok.Msg != "hi" || ok.User != serve.LocalUser {
		t.Fatalf("got %+v", ok)
	}
	// Schema validation: a missing required field and an unknown field are tool errors, not protocol errors.
	for _, args := range []map[string]any{{}, {"msg": "x", "extra": 1}, {"msg": ""}, {"msg": "x", "fail": "nope"}} {
		res := c.Call(t, "echo", args)
		if !res.IsError {
			t.Errorf("args %v: want isError", args)
		}
	}
	hay = append(hay, c.Logs())
	servetest.NoSecrets(t, hay, canary)
	if !strings.Contains(c.Logs(), "[REDACTED]") {
		t.Errorf("the canary should have been scrubbed from the logs: %s", c.Logs())
	}
}

func TestToolFilters(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{nil, []string{"echo", "write"}},
		{[]string{"--read-only"}, []string{"echo"}},
		{[]string{"--tools", "write"}, []string{"write"}},
		{[]string{"--tools", "writes", "--read-only"}, nil},
		{[]string{"--exclude-tools", "basic"}, []string{"write"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c := servetest.New(t, testApp(), tc.args...)
			var got []string
			for _, tl := range c.Tools(t) {
				got = append(got, tl.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("tools = %v, want %v", got, tc.want)
			}
			for _, name := range []string{"echo", "write"} {
				listed := strings.Contains(","+strings.Join(got, ",")+",", ","+name+",")
				_, err := c.CallCtx(context.Background(), name, map[string]any{"msg": "x"})
				if !listed && err == nil {
					t.Errorf("%s is filtered out but still callable", name)
				}
			}
		})
	}
	servetest.Lint(t, servetest.New(t, testApp()).Built.Registry.Tools())
}

func httpServer(t *testing.T, env map[string]string) *httptest.Server {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	o, err := serve.ParseOptions(testApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := serve.Build(context.Background(), testApp(), o, mustLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(serve.HTTPHandler(b))
	t.Cleanup(ts.Close)
	return ts
}

func mustLogger(t *testing.T) (l zerolog.Logger) {
	l, err := serve.NewLogger(io.Discard, "info")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, url string, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func TestHTTPSecurity(t *testing.T) {
	const tok = "tok-0123456789abcdef"
	open := httpServer(t, nil)
	cases := []struct {
		name string
		srv  *httptest.Server
		body string
		hdr  map[string]string
		want int
	}{
		{"plain init", open, initBody, nil, 200},
		{"foreign origin", open, initBody, map[string]string{"Origin": "http://evil.example.com"}, 403},
		{"loopback origin", open, initBody, map[string]string{"Origin": "http://localhost:3000"}, 200},
		{"body over 4 MiB", open, initBody + strings.Repeat(" ", serve.MaxBodyBytes), nil, 413},
	}
	authed := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tok})
	cases = append(cases,
		struct {
			name string
			srv  *httptest.Server
			body string
			hdr  map[string]string
			want int
		}{"no token", authed, initBody, nil, 401},
		struct {
			name string
			srv  *httptest.Server
			body string
			hdr  map[string]string
			want int
		}{"wrong token", authed, initBody, map[string]string{"Authorization": "Bearer tok-0123456789abcdeX"}, 401},
		struct {
			name string
			srv  *httptest.Server
			body string
			hdr  map[string]string
			want int
		}{"right token", authed, initBody, map[string]string{"Authorization": "Bearer " + tok}, 200},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := post(t, tc.srv.URL+"/mcp", tc.body, tc.hdr).StatusCode; got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
		})
	}
	resp, err := http.Get(authed.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
}

func TestUserFromBearerReachesHandler(t *testing.T) {
	const tok = "tok-0123456789abcdef"
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice="+tok+",bob=tok-bbbbbbbbbbbbbbbb")
	conn := servetest.New(t, testApp())
	for era, version := range map[string]string{"modern": "", "legacy": mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run(era, func(t *testing.T) {
			c := conn.HTTPClient(t, version, map[string]string{"Authorization": "Bearer " + tok})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var req mcp.CallToolRequest
			req.Params.Name = "echo"
			req.Params.Arguments = map[string]any{"msg": "hi"}
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if got := servetest.Decode[echoOut](t, res).User; got != "alice" {
				t.Fatalf("user = %q, want alice", got)
			}
		})
	}
}

func TestTerminatedLegacySessionIs404(t *testing.T) {
	ts := httpServer(t, nil)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("legacy initialize returned no session id")
	}
	del, _ := http.NewRequest(http.MethodDelete, ts.URL+"/mcp", nil)
	del.Header.Set("Mcp-Session-Id", sid)
	if resp, err = http.DefaultClient.Do(del); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := post(t, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})
	if got.StatusCode != 404 {
		t.Fatalf("terminated session: status %d, want 404", got.StatusCode)
	}
}

func TestRefusesPublicAddrWithoutTokens(t *testing.T) {
	var stderr bytes.Buffer
	code := serve.Run(context.Background(), testApp(), []string{"--transport", "http", "--addr", "0.0.0.0:0"}, nil, io.Discard, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "without authentication") || !strings.Contains(stderr.String(), "MCPFLEET_AUTH_TOKENS") {
		t.Fatalf("code %d, stderr %q", code, stderr.String())
	}
}

func TestBadFlagsAndTokens(t *testing.T) {
	cases := []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"--transport", "carrier-pigeon"}, "stdio or http"},
		{"alice", nil, "not user=token"},
		{"alice=short", nil, "shorter than 16"},
		{"issued#bob=0123456789abcdef0123", nil, "contains '#'"},
		{"", []string{"--log-level", "loud"}, "log-level"},
	}
	for _, tc := range cases {
		t.Setenv("MCPFLEET_AUTH_TOKENS", tc.env)
		var stderr bytes.Buffer
		code := serve.Run(context.Background(), testApp(), tc.args, strings.NewReader(""), io.Discard, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v %q: code %d stderr %q", tc.args, tc.env, code, stderr.String())
		}
	}
}

func TestStdioServesAndExitsOnEOF(t *testing.T) {
	in := strings.NewReader(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"over stdio"}}}` + "\n")
	var out, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- serve.Run(context.Background(), testApp(), nil, in, &out, &stderr) }()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stdio server did not exit on EOF")
	}
	if !strings.Contains(out.String(), "over stdio") {
		t.Fatalf("stdout: %s", out.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0"`) {
			t.Fatalf("non-protocol line on stdout: %q", line)
		}
	}
}

// TestStdioAnswersBatchBeforeExit: a client that writes a batch and closes
// stdin at once still gets every reply (mcp-go alone cancels them on EOF).
func TestStdioAnswersBatchBeforeExit(t *testing.T) {
	var in strings.Builder
	in.WriteString(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	const n = 50
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"m%d"}}}`+"\n", 100+i, i)
	}
	var out, stderr bytes.Buffer
	if code := serve.Run(context.Background(), testApp(), nil, strings.NewReader(in.String()), &out, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for i := 0; i < n; i++ {
		if !strings.Contains(out.String(), fmt.Sprintf(`"id":%d,`, 100+i)) {
			t.Fatalf("no reply to request %d; stdout:\n%s", 100+i, out.String())
		}
	}
}

// The drain with input arriving a byte at a time, a line that is not JSON but
// has an id-like prefix, and a notification: every request answered, and the
// broken line does not hold the exit for the drain timeout.
func TestStdioDrainOddInput(t *testing.T) {
	var in strings.Builder
	in.WriteString(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{` + "\n") // not JSON: answered with a parse error and no id
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"r%d","method":"tools/call","params":{"name":"echo","arguments":{"msg":"m%d"}}}`+"\n", i, i)
	}
	var out, stderr bytes.Buffer
	start := time.Now()
	if code := serve.Run(context.Background(), testApp(), nil, iotest.OneByteReader(strings.NewReader(in.String())), &out, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("exit took %v: the unparsable line was waited for", took)
	}
	for i := 0; i < 5; i++ {
		if !strings.Contains(out.String(), fmt.Sprintf(`"id":"r%d",`, i)) {
			t.Fatalf("no reply to r%d; stdout:\n%s", i, out.String())
		}
	}
}

// TestIdleExpiredSessionStreamEnds: a 2025-11-25 session that idles past
// MCPFLEET_HTTP_SESSION_IDLE_TTL loses its open GET stream too, instead of a
// stream that stays open pinging a session every request now gets 404 for.
func TestIdleExpiredSessionStreamEnds(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_HTTP_SESSION_IDLE_TTL": "1s"})
	resp := post(t, ts.URL+"/mcp", initBody, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("legacy initialize returned no session id")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/mcp", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Mcp-Session-Id", sid)
	get.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	stream, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != 200 {
		t.Fatalf("GET stream: status %d", stream.StatusCode)
	}
	if got := stream.Header.Get("X-Accel-Buffering"); got != "no" { // sseKeepAlive is wired
		t.Errorf("GET stream: X-Accel-Buffering %q, want no", got)
	}
	if _, err := io.Copy(io.Discard, stream.Body); ctx.Err() != nil {
		t.Fatalf("the expired session's stream stayed open (%v)", err)
	}
	got := post(t, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})
	if got.StatusCode != 404 {
		t.Fatalf("expired session: status %d, want 404", got.StatusCode)
	}
}
