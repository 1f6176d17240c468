package serve

import (
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// StartCPUProfile writes a CPU profile of the whole run to path (from
// MCPFLEET_CPUPROFILE) for `go tool pprof`: the way to see where a server's
// time goes under a real client such as mcpbench. It returns a nil stop and
// no error when path is empty. cmd/samebytes-floor profiles the floor with it
// too, so the two profiles of a comparison are taken alike.
func StartCPUProfile(path string) (stop func(), err error) {
	return startRecording(path, pprof.StartCPUProfile, pprof.StopCPUProfile)
}

// StartTrace writes a runtime execution trace of the whole run to path (from
// MCPFLEET_TRACE) for `go tool trace`. A CPU profile says where on-CPU time
// goes; a trace says what it cannot: how often a call wakes a thread, hands a
// processor over, or waits to be scheduled (docs/benchmarks.md, twelfth run).
// Empty path: nil stop, no error. cmd/samebytes-floor takes it too.
func StartTrace(path string) (stop func(), err error) {
	return startRecording(path, trace.Start, trace.Stop)
}

func startRecording(path string, start func(io.Writer) error, end func()) (stop func(), err error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		end()
		_ = f.Close()
	}, nil
}
