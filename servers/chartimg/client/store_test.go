package client

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
)

// TestDailyLimitHeldInTheStateFile: two clients on one state file (two
// processes of the server, e.g. one per stdio session) spend one daily
// quota; in memory each had its own.
func TestDailyLimitHeldInTheStateFile(t *testing.T) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	path := filepath.Join(t.TempDir(), "chartimg.db")
	client := func() *Client {
		db := storetest.Open(t, path)
		return New(Config{APIURL: base, APIKey: "test-key", Retries: -1, Store: db,
			Plan: chart.Plan{Name: "TINY", PerSecond: 100, Burst: 100, DailyMax: 2, MaxWidth: 800, MaxHeight: 600, MaxParameters: 3}})
	}
	ctx := context.Background()
	if _, err := client().Exchanges(ctx); err != nil {
		t.Fatal(err)
	}
	second := client()
	if _, err := second.Exchanges(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := second.Exchanges(ctx)
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.RateLimited {
		t.Fatalf("third call over two processes: %v", err)
	}
	if n := f.Count(fake.RouteList); n != 2 {
		t.Errorf("%d requests reached chart-img, want 2", n)
	}
}
