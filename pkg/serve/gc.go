package serve

import (
	"os"
	"runtime/debug"
)

// The collector's settings once a server is serving (issue 20). A server's
// live heap is a few MiB, so at Go's default GOGC=100 it collects every few
// MiB allocated — every few hundred calls — and that, not the call's own
// work, was the largest share of the per-call CPU above a bare mcp-go
// server's (ktrdr HTTP C=16: 1.36× the floor's CPU at GOGC=100, 1.22× at
// 200, 1.10× at 300; docs/benchmarks.md). 300, not more: ziwei's goal of a
// peak RSS ≤ 30 MB after 4,000 calls (27.0 MiB at 300, 31.2 at 400).
// Start-up runs at the default, so the idle footprint is what it was;
// memory under load grows to about four times the live heap (ktrdr at
// C=16: 21 → 29 MiB peak RSS), and the soft limit bounds that for
// a server whose live heap is large: past it the collector runs as often as
// it must to stay under (docs/deploy.md).
const (
	servingGCPercent   = 300
	servingMemoryLimit = 192 << 20 // three quarters of deploy/'s 256Mi container limit
)

// tuneGCForServing applies the serving settings, each unless the environment
// sets its own (GOGC, GOMEMLIMIT: an operator's choice wins). It returns what
// it changed, for the log.
func tuneGCForServing(lookup func(string) (string, bool)) (gcPercent int, memLimit int64) {
	gcPercent, memLimit = -1, -1
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(servingGCPercent)
		gcPercent = servingGCPercent
	}
	if _, set := lookup("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(servingMemoryLimit)
		memLimit = servingMemoryLimit
	}
	return gcPercent, memLimit
}

// tuneGC is set by Main: tests that call Run keep the process's settings.
var tuneGC = false

func tuneGCIfServing() (int, int64) {
	if !tuneGC {
		return -1, -1
	}
	return tuneGCForServing(os.LookupEnv)
}
