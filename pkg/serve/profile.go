package serve

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the whole run to path (from
// MCPFLEET_CPUPROFILE) for `go tool pprof`: the way to see where a server's time
// goes under a real client such as mcpbench. It returns nil when path is empty.
func startCPUProfile(path string, stderr io.Writer) func() {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(stderr, "MCPFLEET_CPUPROFILE:", err)
		return nil
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(stderr, "MCPFLEET_CPUPROFILE:", err)
		_ = f.Close()
		return nil
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
