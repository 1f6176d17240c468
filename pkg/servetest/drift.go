package servetest

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// WatchEveryAnswer makes the servers this test builds check every upstream
// answer for drift, not one a minute per route: the setting users have
// (MCPFLEET_DRIFT_SAMPLE=0), set for the test. Call it before New; read a
// server's watch as conn.Built.Registry.Drift.
func WatchEveryAnswer(t testing.TB) {
	t.Setenv(drift.EnvSample, "0")
}

// ResultFor is the probe result of route in rs (the zero Result when none).
func ResultFor(rs []drift.Result, route string) drift.Result {
	for _, r := range rs {
		if r.Route == route {
			return r
		}
	}
	return drift.Result{}
}
