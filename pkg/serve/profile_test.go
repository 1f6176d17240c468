package serve

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile: MCPFLEET_CPUPROFILE writes what pprof reads, starts nothing
// without a path, and reports a path that cannot be written, by its
// variable, instead of serving without the profile asked for.
// Not parallel: a process has one CPU profile at a time.
func TestCPUProfile(t *testing.T) {
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		t.Skip("go test -cpuprofile is recording already")
	}
	if stop, err := startCPUProfile(""); stop != nil || err != nil {
		t.Fatalf("no path: stop %v, err %v; want neither", stop != nil, err)
	}
	if _, err := startCPUProfile(filepath.Join(t.TempDir(), "missing", "out")); err == nil || !strings.HasPrefix(err.Error(), "MCPFLEET_CPUPROFILE: ") {
		t.Fatalf("an unwritable path: %v", err)
	}
	path := filepath.Join(t.TempDir(), "out")
	stop, err := startCPUProfile(path)
	if err != nil || stop == nil {
		t.Fatalf("start: %v", err)
	}
	_ = strings.Repeat("work ", 1<<16) // something to record
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if magic := []byte{0x1f, 0x8b}; !bytes.HasPrefix(b, magic) { // gzipped protobuf
		t.Fatalf("%d bytes beginning %q, want %q", len(b), b[:min(len(b), 8)], magic)
	}
	// Stopped means released: a second profile can start.
	again, err := startCPUProfile(filepath.Join(t.TempDir(), "again"))
	if err != nil {
		t.Fatalf("after stop: %v", err)
	}
	again()
}
