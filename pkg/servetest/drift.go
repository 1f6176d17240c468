package servetest

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// WatchEveryAnswer empties the process's drift watch and makes it check every
// answer (not one a minute per route) for the test, then puts both back.
func WatchEveryAnswer(t testing.TB) *drift.Watch {
	w := drift.Default()
	w.Reset()
	w.SetSample(0)
	t.Cleanup(func() { w.SetSample(drift.DefaultSample); w.Reset() })
	return w
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
