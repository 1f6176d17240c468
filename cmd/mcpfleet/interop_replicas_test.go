package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// TestResourceUpdatesAcrossReplicas: two shoonya replicas share Redis; the
// broker socket and its ticks live on replica A (subscribe_market_feeds ran
// there), and a client of either era watching an instrument on replica B gets
// notifications/resources/updated for it (Go SDK client, HTTP).
func TestResourceUpdatesAcrossReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	rs := redistest.StartServer(t)
	bin := filepath.Join(bins, "shoonya")
	env := append(replicaUpstream(t, bins, "shoonya").env, "MCPFLEET_LOG_LEVEL=warn",
		"MCPFLEET_REDIS_URL=redis://"+rs.Addr()+"/0", "MCPFLEET_AUTH_TOKENS=canary="+canaryToken)
	a, b := startReplica(t, bin, env), startReplica(t, bin, env)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	owner, _ := replicaClient(ctx, t, a.url.String(), "2026-07-28")
	for _, c := range []interopCall{interopPlans["shoonya"].Valid,
		{"subscribe_market_feeds", map[string]any{"instruments": []string{"NSE|22"}}, "NSE"}} {
		res, err := owner.CallTool(ctx, &gosdk.CallToolParams{Name: c.Tool, Arguments: c.Args})
		if err != nil || res.IsError {
			t.Fatalf("replica A %s: %v %+v", c.Tool, err, res)
		}
	}
	const uri = "shoonya://feed/NSE/22"
	for _, era := range interopEras {
		t.Run(era, func(t *testing.T) {
			watcher, count := replicaClient(ctx, t, b.url.String(), era)
			if err := watcher.Subscribe(ctx, &gosdk.SubscribeParams{URI: uri}); err != nil {
				t.Fatalf("subscribe on replica B: %v", err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for count(uri) < 3 {
				if time.Now().After(deadline) {
					t.Fatalf("%s on replica B: %d resources/updated for %s while replica A ticks\nA: %s\nB: %s",
						era, count(uri), uri, a.stderr.String(), b.stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// replicaClient connects the Go SDK client to one replica in one era and
// counts the resources/updated it receives per URI.
func replicaClient(ctx context.Context, t *testing.T, base, era string) (*gosdk.ClientSession, func(string) int) {
	t.Helper()
	var mu sync.Mutex
	got := map[string]int{}
	c := gosdk.NewClient(&gosdk.Implementation{Name: "mcpfleet-replicas", Version: "1"}, &gosdk.ClientOptions{
		Capabilities: &gosdk.ClientCapabilities{},
		ResourceUpdatedHandler: func(_ context.Context, req *gosdk.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			got[req.Params.URI]++
			mu.Unlock()
		},
	})
	cs, err := c.Connect(ctx, &gosdk.StreamableClientTransport{Endpoint: base + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1},
		&gosdk.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect %s (%s): %v", base, era, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, func(uri string) int { mu.Lock(); defer mu.Unlock(); return got[uri] }
}

// TestDeleteEndsGetStreamsOnEveryReplica: a 2025-11-25 session's GET stream
// on replica A ends when replica B answers the session's DELETE.
func TestDeleteEndsGetStreamsOnEveryReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	rs := redistest.StartServer(t)
	env := append(serverEnv(t, bins, "ziwei"), "MCPFLEET_LOG_LEVEL=warn", "MCPFLEET_REDIS_URL=redis://"+rs.Addr()+"/1")
	a, b := startReplica(t, filepath.Join(bins, "ziwei"), env), startReplica(t, filepath.Join(bins, "ziwei"), env)
	send := func(method, base, sid, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+canaryToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if method == http.MethodGet {
			req.Header.Set("Accept", "text/event-stream")
		}
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	init := send(http.MethodPost, a.url.String(), "", httpInit)
	init.Body.Close()
	sid := init.Header.Get("Mcp-Session-Id")
	if init.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize on A: %d, session %q", init.StatusCode, sid)
	}
	stream := send(http.MethodGet, a.url.String(), sid, "")
	defer stream.Body.Close()
	if stream.StatusCode != 200 {
		t.Fatalf("GET on A: %d", stream.StatusCode)
	}
	ended := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, stream.Body); close(ended) }()
	del := send(http.MethodDelete, b.url.String(), sid, "")
	del.Body.Close()
	if del.StatusCode != 200 {
		t.Fatalf("DELETE on B: %d", del.StatusCode)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the session's GET stream on replica A is still open 10 s after replica B ended the session")
	}
}
