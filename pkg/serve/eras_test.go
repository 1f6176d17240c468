package serve_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// TestModernHTTPWithoutRequestMeta: under a 2026-07-28 MCP-Protocol-Version
// header, a notification needs no request _meta (202, as the Go SDK's
// notifications/cancelled after a closed stream), and a removed method is
// -32601 with or without _meta, as on stdio.
func TestModernHTTPWithoutRequestMeta(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA})
	hdr := func(method string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + tokA, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	}
	cases := []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"cancelled without _meta", "notifications/cancelled", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"context canceled"}}`, 202, ""},
		{"cancelled without params", "notifications/cancelled", `{"jsonrpc":"2.0","method":"notifications/cancelled"}`, 202, ""},
		{"ping without _meta", "ping", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, 404, `"code":-32601`},
		{"ping with _meta", "ping", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{` + modernMeta + `}}`, 404, `"code":-32601`},
		{"logging/setLevel without _meta", "logging/setLevel", `{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"info"}}`, 404, `"code":-32601`},
		{"a request still needs _meta", "tools/list", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, 400, "_meta"},
		{"a request with _meta", "tools/list", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + modernMeta + `}}`, 200, `"tools"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, http.MethodPost, ts.URL+"/mcp", tc.body, hdr(tc.method))
			if r.status != tc.status || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %q, want %d with %q", r.status, r.body, tc.status, tc.want)
			}
		})
	}
}

// TestSubscribeAdvertisedOnlyWhenWatchable: a server with no resource to
// watch does not advertise resources.subscribe, and refuses
// resources/subscribe; one that calls WatchResources advertises it.
func TestSubscribeAdvertisedOnlyWhenWatchable(t *testing.T) {
	plain := servetest.New(t, testApp())
	if caps := plain.Client.GetServerCapabilities(); caps.Resources != nil && caps.Resources.Subscribe {
		t.Fatalf("resources.subscribe advertised with nothing to watch: %+v", caps.Resources)
	}
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA})
	sid, _ := initSession(t, ts.URL, tokA)
	r := do(t, http.MethodPost, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://anything"}}`, legacyHdr(tokA, sid))
	if !strings.Contains(r.body, "no resource to subscribe to") {
		t.Fatalf("resources/subscribe with nothing to watch: %d %s", r.status, r.body)
	}

	app := testApp()
	register := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error {
		r.WatchResources(serve.Watch{Check: func(string) error { return nil },
			Subscribe: func(_, _, _ string) {}, Unsubscribe: func(_, _ string) {}, Forget: func(string) {}})
		return register(ctx, r)
	}
	watched := servetest.New(t, app)
	if caps := watched.Client.GetServerCapabilities(); caps.Resources == nil || !caps.Resources.Subscribe {
		t.Fatalf("resources.subscribe not advertised: %+v", caps.Resources)
	}
}

// TestDeleteEndsTheGetStream: DELETE of a 2025-11-25 session ends that
// session's open GET stream (mcp-go left it open after answering 200).
func TestDeleteEndsTheGetStream(t *testing.T) {
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA})
	sid, _ := initSession(t, ts.URL, tokA)
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/mcp", nil)
	for k, v := range legacyHdr(tokA, sid) {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		ended <- err
	}()
	if got := do(t, http.MethodDelete, ts.URL+"/mcp", "", legacyHdr(tokA, sid)).status; got != 200 {
		t.Fatalf("DELETE: %d", got)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the GET stream is still open 10 s after its session was deleted")
	}
}

// TestModernPingOnStdio: on stdio a 2026-07-28 ping (request _meta) is
// -32601, as over HTTP; the same ping without _meta is a 2025-11-25 request.
func TestModernPingOnStdio(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}
{"jsonrpc":"2.0","id":2,"method":"ping","params":{` + modernMeta + `}}
{"jsonrpc":"2.0","id":3,"method":"ping"}
`
	byID := map[float64]map[string]any{}
	for _, m := range runStdio(t, in, func(r io.Reader) io.Reader { return r }, nil) {
		if id, ok := m["id"].(float64); ok {
			byID[id] = m
		}
	}
	if e, _ := byID[2]["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Errorf("2026-07-28 ping: %v, want -32601", byID[2])
	}
	if byID[3]["result"] == nil {
		t.Errorf("ping without _meta: %v, want a result", byID[3])
	}
}

// TestCapabilitiesAsServed: no list changes after start, so no listChanged
// is advertised; a server with no resources or prompts declares neither and
// answers their methods with -32601 (method not found), not an empty list.
func TestCapabilitiesAsServed(t *testing.T) {
	plain := servetest.New(t, testApp())
	caps := plain.Client.GetServerCapabilities()
	if caps.Tools == nil || caps.Tools.ListChanged {
		t.Errorf("tools: %+v, want declared without listChanged", caps.Tools)
	}
	if caps.Resources != nil || caps.Prompts != nil {
		t.Errorf("resources %+v, prompts %+v declared by a server that has none", caps.Resources, caps.Prompts)
	}
	ts := httpServer(t, map[string]string{"MCPFLEET_AUTH_TOKENS": "alice=" + tokA})
	sid, _ := initSession(t, ts.URL, tokA)
	for _, m := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		r := do(t, http.MethodPost, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"`+m+`"}`, legacyHdr(tokA, sid))
		if !strings.Contains(r.body, `"code":-32601`) {
			t.Errorf("%s on a server without them: %d %s", m, r.status, r.body)
		}
	}
}
