package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// TestConfigOnStateFile: without Redis, two processes on one state file
// spend one account's request budget, as the broker counts it.
func TestConfigOnStateFile(t *testing.T) {
	t.Setenv(EnvPerSecond, "0")
	t.Setenv(EnvPerMinute, "3")
	path := filepath.Join(t.TempDir(), "shoonya.db")
	admitted := 0
	for range 2 {
		db := storetest.Open(t, path)
		cfg, _, _, err := ConfigOn(nil, db)
		if err != nil {
			t.Fatal(err)
		}
		if !cfg.SharedLimiter || !cfg.LimiterInFile {
			t.Fatalf("limiter not in the state file: %+v", cfg)
		}
		for range 3 {
			d, err := cfg.Limiter.Allow(context.Background(), "FA12345")
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				admitted++
			}
		}
	}
	if admitted != 3 {
		t.Fatalf("two processes admitted %d calls in one minute, want 3", admitted)
	}
}
