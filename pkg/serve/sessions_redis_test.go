package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

type clientOut struct {
	Name        string `json:"name"`
	Elicitation bool   `json:"elicitation"`
	User        string `json:"user"`
}

// clientApp is testApp plus a tool that reports what mcp-go knows of the
// calling session's client: it shows whether a replica adopted the session.
func clientApp() serve.App {
	app := testApp()
	inner := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error {
		r.AddTools(toolkit.New(toolkit.Def{Name: "client", Description: "Report the session's client.", Toolset: "basic", Hints: toolkit.LocalRead},
			func(ctx context.Context, in echoIn) (clientOut, error) {
				out := clientOut{User: serve.UserID(ctx)}
				if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
					out.Name = cs.GetClientInfo().Name
					out.Elicitation = cs.GetClientCapabilities().Elicitation != nil
				}
				return out, nil
			}))
		return inner(ctx, r)
	}
	return app
}

// replicas builds n HTTP handlers of one app sharing Redis at addr, as n
// replicas behind a load balancer would.
func replicas(t *testing.T, addr string, n int, env map[string]string) []*httptest.Server {
	t.Helper()
	t.Setenv("MCPFLEET_REDIS_URL", "redis://"+addr)
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice="+tokA+",bob="+tokB)
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out []*httptest.Server
	for i := 0; i < n; i++ {
		o, err := serve.ParseOptions(clientApp(), []string{"--transport", "http"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		b, err := serve.Build(context.Background(), clientApp(), o, mustLogger(t))
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(serve.HTTPHandler(b))
		t.Cleanup(ts.Close)
		out = append(out, ts)
	}
	return out
}

const (
	initElicit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"adoptee","version":"1"}}}`
	callClient = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"client","arguments":{"msg":"x"}}}`
	listTools  = `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`
)

func callClientTool(t *testing.T, url, sid string) (int, clientOut) {
	t.Helper()
	r := do(t, http.MethodPost, url+"/mcp", callClient, legacyHdr(tokA, sid))
	var env struct {
		Result struct {
			StructuredContent clientOut `json:"structuredContent"`
		} `json:"result"`
	}
	if r.status == 200 {
		if err := json.Unmarshal([]byte(r.body), &env); err != nil {
			t.Fatalf("%v: %.300s", err, r.body)
		}
	}
	return r.status, env.Result.StructuredContent
}

// A replica that never saw the initialize serves the session with the
// client's info and capabilities, as the replica that saw it does.
func TestSharedSessionAdoptedByAnotherReplica(t *testing.T) {
	rs := replicas(t, redistest.StartServer(t).Addr(), 2, nil)
	a, b := rs[0].URL, rs[1].URL
	r := do(t, http.MethodPost, a+"/mcp", initElicit, map[string]string{"Authorization": "Bearer " + tokA})
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	want := clientOut{Name: "adoptee", Elicitation: true, User: "alice"}
	for i, url := range []string{a, b, b, a} {
		code, got := callClientTool(t, url, sid)
		if code != 200 || got != want {
			t.Fatalf("call %d on replica %d: %d %+v, want %+v", i, map[string]int{a: 0, b: 1}[url], code, got, want)
		}
	}
	// Bob's token does not reach alice's session on either replica.
	for _, url := range []string{a, b} {
		if r := do(t, http.MethodPost, url+"/mcp", listTools, legacyHdr(tokB, sid)); r.status != 404 {
			t.Fatalf("bob on alice's session: %d", r.status)
		}
	}
	// DELETE on b ends it on a too (a initialized it and still holds its state).
	if r := do(t, http.MethodDelete, b+"/mcp", "", legacyHdr(tokA, sid)); r.status != 200 {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	for _, url := range []string{a, b} {
		if r := do(t, http.MethodPost, url+"/mcp", listTools, legacyHdr(tokA, sid)); r.status != 404 {
			t.Fatalf("terminated session: %d %s", r.status, r.body)
		}
	}
}

// Idle expiry is Redis' TTL, refreshed on every use on any replica: the
// replica that initialized the session and then saw no traffic only forgets
// its own state, and the session ends for all once nobody uses it.
func TestSharedSessionIdleExpiry(t *testing.T) {
	rs := replicas(t, redistest.StartServer(t).Addr(), 2, map[string]string{"MCPFLEET_HTTP_SESSION_IDLE_TTL": "1s"})
	a, b := rs[0].URL, rs[1].URL
	sid, r := initSession(t, a, tokA)
	if r.status != 200 {
		t.Fatalf("initialize: %d", r.status)
	}
	// 3 s of use on b only: a's sweeper (TTL 1 s) fires meanwhile.
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if r := do(t, http.MethodPost, b+"/mcp", listTools, legacyHdr(tokA, sid)); r.status != 200 {
			t.Fatalf("session in use on b ended: %d %s", r.status, r.body)
		}
	}
	if r := do(t, http.MethodPost, a+"/mcp", listTools, legacyHdr(tokA, sid)); r.status != 200 {
		t.Fatalf("session in use on b ended on a: %d %s", r.status, r.body)
	}
	// Unused: gone everywhere within the TTL (bounded wait, for a loaded machine).
	deadline := time.Now().Add(15 * time.Second)
	for {
		ra := do(t, http.MethodPost, a+"/mcp", listTools, legacyHdr(tokA, sid))
		rb := do(t, http.MethodPost, b+"/mcp", listTools, legacyHdr(tokA, sid))
		if ra.status == 404 && rb.status == 404 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("idle session still live: a %d, b %d", ra.status, rb.status)
		}
		time.Sleep(1500 * time.Millisecond) // longer than the TTL: the polls must not keep it alive
	}
}

// Caps count every replica's sessions, and a session's end frees its slot.
func TestSharedSessionCaps(t *testing.T) {
	rs := replicas(t, redistest.StartServer(t).Addr(), 2, map[string]string{
		"MCPFLEET_HTTP_MAX_SESSIONS": "3", "MCPFLEET_HTTP_MAX_SESSIONS_PER_USER": "2"})
	var sids []string
	for i, c := range []struct {
		url, tok string
		want     int
	}{{rs[0].URL, tokA, 200}, {rs[1].URL, tokA, 200}, {rs[0].URL, tokA, 429}, {rs[1].URL, tokA, 429},
		{rs[0].URL, tokB, 200}, {rs[1].URL, tokB, 503}, {rs[0].URL, tokB, 503}} {
		sid, r := initSession(t, c.url, c.tok)
		if r.status != c.want {
			t.Fatalf("session %d: %d, want %d: %s", i, r.status, c.want, r.body)
		}
		if r.status == 200 {
			sids = append(sids, sid)
		}
	}
	if r := do(t, http.MethodDelete, rs[1].URL+"/mcp", "", legacyHdr(tokA, sids[0])); r.status != 200 {
		t.Fatalf("DELETE: %d", r.status)
	}
	if _, r := initSession(t, rs[1].URL, tokB); r.status != 200 {
		t.Fatalf("after a DELETE: %d %s", r.status, r.body)
	}
}

// Redis away: new sessions and known ones get a clear 503, never a silent accept.
func TestSharedSessionRedisDown(t *testing.T) {
	srv := redistest.StartServer(t)
	rs := replicas(t, srv.Addr(), 1, nil)
	sid, r := initSession(t, rs[0].URL, tokA)
	if r.status != 200 {
		t.Fatalf("initialize: %d", r.status)
	}
	_ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err()
	for _, c := range []struct{ name, body, sid string }{{"initialize", initBody, ""}, {"tools/list", listTools, sid}} {
		hdr := legacyHdr(tokA, c.sid)
		if c.sid == "" {
			hdr = map[string]string{"Authorization": "Bearer " + tokA}
		}
		r := do(t, http.MethodPost, rs[0].URL+"/mcp", c.body, hdr)
		if r.status != 503 || !strings.Contains(r.body, "session store (Redis) is not answering") || r.header.Get("Retry-After") == "" {
			t.Fatalf("%s with Redis down: %d %q %s", c.name, r.status, r.header.Get("Retry-After"), r.body)
		}
	}
}

// BenchmarkLegacyCall measures a legacy tools/call with sessions in memory
// and in Redis (one Lua round trip per request on loopback).
func BenchmarkLegacyCall(b *testing.B) {
	for _, store := range []string{"memory", "redis"} {
		b.Run(store, func(b *testing.B) {
			b.Setenv("MCPFLEET_AUTH_TOKENS", "alice="+tokA)
			b.Setenv("MCPFLEET_REDIS_URL", "")
			if store == "redis" {
				b.Setenv("MCPFLEET_REDIS_URL", "redis://"+redistest.StartServer(b).Addr())
			}
			o, err := serve.ParseOptions(clientApp(), []string{"--transport", "http"}, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			log, _ := serve.NewLogger(io.Discard, "error")
			built, err := serve.Build(context.Background(), clientApp(), o, log)
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(serve.HTTPHandler(built))
			defer ts.Close()
			post := func(body, sid string) (*http.Response, error) {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Authorization", "Bearer "+tokA)
				if sid != "" {
					req.Header.Set("Mcp-Session-Id", sid)
					req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				}
				return ts.Client().Do(req)
			}
			resp, err := post(initBody, "")
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("initialize: %v", err)
			}
			sid := resp.Header.Get("Mcp-Session-Id")
			resp.Body.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				resp, err := post(callClient, sid)
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("call: %v", err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
