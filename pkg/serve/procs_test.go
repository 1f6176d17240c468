package serve

import (
	"runtime"
	"testing"
)

// TestOneProcessorForStdio: a stdio server runs on one processor unless the
// operator set GOMAXPROCS, which is then left as it is.
func TestOneProcessorForStdio(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	for _, tc := range []struct {
		name      string
		env       map[string]string
		wantSet   int
		wantProcs int
	}{
		{"unset: one", map[string]string{}, 1, 1},
		{"operator's 3", map[string]string{"GOMAXPROCS": "3"}, -1, 3},
		{"operator's, even empty", map[string]string{"GOMAXPROCS": ""}, -1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GOMAXPROCS(3) // what the runtime took from the environment
			got := oneProcessorForStdio(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if got != tc.wantSet || runtime.GOMAXPROCS(0) != tc.wantProcs {
				t.Fatalf("set %d, GOMAXPROCS %d; want %d, %d", got, runtime.GOMAXPROCS(0), tc.wantSet, tc.wantProcs)
			}
		})
	}
}
