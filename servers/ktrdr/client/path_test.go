package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// TestPathArgumentsNeverEscapeTheirSegment: ids of "." or ".." are refused
// before any request (the backend once saw DELETE /api/v1/operations/..), and
// every id is sent as one escaped segment.
func TestPathArgumentsNeverEscapeTheirSegment(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.EscapedPath())
		mu.Unlock()
		http.Error(w, `{"detail":"nope"}`, http.StatusNotFound)
	}))
	defer srv.Close()
	c, err := New(Config{APIURL: srv.URL + "/api/v1", Timeout: 5 * time.Second, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name, field string
		call        func() error
	}{
		{"status ..", "operation_id", func() error { _, err := c.GetOperation(ctx, ".."); return err }},
		{"cancel ..", "operation_id", func() error { _, err := c.CancelOperation(ctx, "..", "x"); return err }},
		{"results .", "operation_id", func() error { _, err := c.OperationResults(ctx, "."); return err }},
		{"performance ..", "operation_id", func() error { _, err := c.Performance(ctx, ".."); return err }},
		{"performance ../x", "operation_id", func() error { _, err := c.Performance(ctx, "../x"); return err }},
		{"market data symbol ..", "symbol", func() error {
			_, err := c.MarketData(ctx, MarketQuery{Symbol: "..", Timeframe: "1h"})
			return err
		}},
	} {
		err := tc.call()
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Details["field"] != tc.field {
			t.Errorf("%s: %v, want invalid_argument naming %s", tc.name, err, tc.field)
		}
	}
	mu.Lock()
	if len(seen) != 0 {
		t.Errorf("refused ids reached the backend: %v", seen)
	}
	mu.Unlock()
	_, _ = c.CancelOperation(ctx, "op_1.2:x", "")
	_, _ = c.MarketData(ctx, MarketQuery{Symbol: "BTC/USD", Timeframe: "1h"})
	mu.Lock()
	defer mu.Unlock()
	want := []string{"DELETE /api/v1/operations/op_1.2:x", "GET /api/v1/data/BTC%2FUSD/1h"}
	if len(seen) != 2 || seen[0] != want[0] || seen[1] != want[1] {
		t.Errorf("paths sent %v, want %v", seen, want)
	}
}
