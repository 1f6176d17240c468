package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestWaitProgressOverHTTP: the same progress notifications reach a client
// over streamable HTTP (loopback), the transport remote deployments use.
func TestWaitProgressOverHTTP(t *testing.T) {
	e := start(t, setup{scripts: map[string]fake.Script{"training": {Duration: 500 * time.Millisecond, Steps: 5}}})
	c := e.conn.HTTPClient(t, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var mu sync.Mutex
	var progress []float64
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, toFloat(n.Params.AdditionalFields["progress"]))
			mu.Unlock()
		}
	})
	id := startTrainingOp(t, e)
	res, err := c.CallTool(ctx, waitRequest(id, 30, 7))
	if err != nil {
		t.Fatal(err)
	}
	if w := servetest.Decode[waitResult](t, res); !w.Finished {
		t.Fatalf("%+v", w)
	}
	mu.Lock()
	defer mu.Unlock()
	// Over streamable HTTP mcp-go queues notifications beside the response, so
	// the last one (100%) can be overtaken by the result and dropped when the
	// stream closes; the result itself reports completion. Require a rising
	// series of real updates.
	if len(progress) < 2 {
		t.Fatalf("progress over HTTP: %v", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] < progress[i-1] || progress[i] > 100 {
			t.Fatalf("progress not rising within 0..100: %v", progress)
		}
	}
}
