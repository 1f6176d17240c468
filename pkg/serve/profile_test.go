package serve

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordings: MCPFLEET_CPUPROFILE and MCPFLEET_TRACE write what pprof and
// `go tool trace` read, start nothing without a path, and report a path that
// cannot be written instead of serving without the recording asked for.
// Not parallel: a process has one CPU profile and one trace at a time.
func TestRecordings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(string) (func(), error)
		magic []byte // how the file begins
		flag  string // go test's own recording of the same kind
	}{
		{"cpu profile", StartCPUProfile, []byte{0x1f, 0x8b}, "test.cpuprofile"}, // gzipped protobuf
		{"trace", StartTrace, []byte("go 1."), "test.trace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f := flag.Lookup(tc.flag); f != nil && f.Value.String() != "" {
				t.Skipf("go test -%s is recording already", strings.TrimPrefix(tc.flag, "test."))
			}
			if stop, err := tc.start(""); stop != nil || err != nil {
				t.Fatalf("no path: stop %v, err %v; want neither", stop != nil, err)
			}
			if _, err := tc.start(filepath.Join(t.TempDir(), "missing", "out")); err == nil {
				t.Fatal("an unwritable path: no error")
			}
			path := filepath.Join(t.TempDir(), "out")
			stop, err := tc.start(path)
			if err != nil || stop == nil {
				t.Fatalf("start: %v", err)
			}
			_ = strings.Repeat("work ", 1<<16) // something to record
			stop()
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, tc.magic) {
				t.Fatalf("%d bytes beginning %q, want %q", len(b), b[:min(len(b), 8)], tc.magic)
			}
			// Stopped means released: a second recording can start.
			again, err := tc.start(filepath.Join(t.TempDir(), "again"))
			if err != nil {
				t.Fatalf("after stop: %v", err)
			}
			again()
		})
	}
}

// TestStartRecordings: every recording the environment names starts; none
// named, nothing starts (a nil stop); one that cannot start is reported by
// its variable while the other still records.
func TestStartRecordings(t *testing.T) {
	for _, f := range []string{"test.cpuprofile", "test.trace"} {
		if fl := flag.Lookup(f); fl != nil && fl.Value.String() != "" {
			t.Skipf("go test -%s is recording already", strings.TrimPrefix(f, "test."))
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		env     map[string]string
		wantErr string // "" for none
		written []string
	}{
		{"none", map[string]string{}, "", nil},
		{"both", map[string]string{"MCPFLEET_CPUPROFILE": filepath.Join(dir, "cpu"), "MCPFLEET_TRACE": filepath.Join(dir, "trace")}, "", []string{"cpu", "trace"}},
		{"trace cannot start", map[string]string{"MCPFLEET_CPUPROFILE": filepath.Join(dir, "cpu2"), "MCPFLEET_TRACE": filepath.Join(dir, "missing", "t")}, "MCPFLEET_TRACE: ", []string{"cpu2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop, err := StartRecordings(func(k string) string { return tc.env[k] })
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)) {
				t.Fatalf("err %v, want %q", err, tc.wantErr)
			}
			if (stop != nil) != (len(tc.written) > 0) {
				t.Fatalf("stop %v with %d recordings", stop != nil, len(tc.written))
			}
			if stop != nil {
				stop()
			}
			for _, name := range tc.written {
				if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
}
