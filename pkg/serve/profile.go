package serve

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// StartCPUProfile writes a CPU profile of the whole run to path (from
// MCPFLEET_CPUPROFILE) for `go tool pprof`: the way to see where a server's
// time goes under a real client. It returns a nil stop and no error when
// path is empty.
func StartCPUProfile(path string) (stop func(), err error) {
	return startRecording(path, pprof.StartCPUProfile, pprof.StopCPUProfile)
}

// StartTrace writes a runtime execution trace of the whole run to path (from
// MCPFLEET_TRACE) for `go tool trace`. A CPU profile says where on-CPU time
// goes; a trace says what it cannot: how often a call wakes a thread, hands a
// processor over, or waits to be scheduled. Empty path: nil stop, no error.
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

// StartRecordings starts every recording getenv asks for (MCPFLEET_CPUPROFILE,
// MCPFLEET_TRACE) and returns what stops them all: nil when none started. One
// that cannot start is in err, named by its variable; the others still run.
func StartRecordings(getenv func(string) string) (stop func(), err error) {
	recordings := []struct {
		env   string
		start func(path string) (stop func(), err error)
	}{{"MCPFLEET_CPUPROFILE", StartCPUProfile}, {"MCPFLEET_TRACE", StartTrace}}
	var stops []func()
	var errs []error
	for _, r := range recordings {
		s, err := r.start(getenv(r.env))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.env, err))
		} else if s != nil {
			stops = append(stops, s)
		}
	}
	if len(stops) > 0 {
		stop = func() {
			for _, s := range stops {
				s()
			}
		}
	}
	return stop, errors.Join(errs...)
}
