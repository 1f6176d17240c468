package serve

import (
	"os"
	"runtime/pprof"
)

// StartCPUProfile writes a CPU profile of the whole run to path (from
// MCPFLEET_CPUPROFILE) for `go tool pprof`: the way to see where a server's
// time goes under a real client such as mcpbench. It returns a nil stop and
// no error when path is empty. cmd/samebytes-floor profiles the floor with it
// too, so the two profiles of a comparison are taken alike.
func StartCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
