package main

import (
	"context"
	"net/http"
	"path/filepath"
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
