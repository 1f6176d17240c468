package serve

import (
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
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
		servingPace.Store(true)
	}
	if _, set := lookup("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(servingMemoryLimit)
		memLimit = servingMemoryLimit
	}
	return gcPercent, memLimit
}

// tuneRuntime is set by Main: the collector (here) and stdio's processors
// (procs.go) are tuned for a real server; tests that call Run keep the
// process's settings.
var tuneRuntime = false

func tuneGCIfServing() (int, int64) {
	if !tuneRuntime {
		return -1, -1
	}
	return tuneGCForServing(os.LookupEnv)
}

// A large request body (≥ bigAllocBytes) makes mcp-go allocate about 14 times
// its size while it is handled (io.ReadAll, json.Decoder's buffer, RawMessage
// copies, the unquoted string, the schema validator's copy: 58 MB for a 4 MiB
// tools/call), most of it live at once. At the serving pace the heap may grow
// to four times what is live, so two such bodies at once (the 8 MiB body
// budget) took RSS to 150–190 MB; at Go's default pace it stays near twice
// what is live. So while any large body is being handled the collector runs at
// the default pace, and returns to the serving pace when the last one ends.
// Small bodies, the ones the serving pace is for, never take the lock.
var (
	servingPace atomic.Bool // tuneGCForServing set the serving GC percent
	bigBodies   struct {
		sync.Mutex
		n int
	}
)

// largeBodyPace switches to the default pace for a body of n bytes, if it is
// large and the serving pace is ours to change; the returned func switches
// back once no large body is left.
func largeBodyPace(n int64) (done func()) {
	if n < bigAllocBytes || !servingPace.Load() {
		return func() {}
	}
	bigBodies.Lock()
	if bigBodies.n == 0 {
		debug.SetGCPercent(defaultGCPercent)
	}
	bigBodies.n++
	bigBodies.Unlock()
	return func() {
		bigBodies.Lock()
		bigBodies.n--
		if bigBodies.n == 0 {
			debug.SetGCPercent(servingGCPercent)
		}
		bigBodies.Unlock()
	}
}

const defaultGCPercent = 100 // Go's GOGC default
