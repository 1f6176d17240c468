package serve

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGCForServing(t *testing.T) {
	cases := []struct {
		name         string
		env          map[string]string
		wantPct      int
		wantLimit    int64
		wantSetPct   int   // what the runtime holds afterwards
		wantSetLimit int64 // ditto
	}{
		{"nothing set: serving settings", nil, servingGCPercent, servingMemoryLimit, servingGCPercent, servingMemoryLimit},
		{"GOGC set: kept", map[string]string{"GOGC": "150"}, -1, servingMemoryLimit, 150, servingMemoryLimit},
		{"GOMEMLIMIT set: kept", map[string]string{"GOMEMLIMIT": "1GiB"}, servingGCPercent, -1, servingGCPercent, math.MaxInt64},
		{"both set: nothing changed", map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, -1, -1, 150, math.MaxInt64},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// What the environment would have set, as the runtime does at start.
			debug.SetGCPercent(150)
			debug.SetMemoryLimit(math.MaxInt64)
			pct, limit := tuneGCForServing(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if pct != tc.wantPct || limit != tc.wantLimit {
				t.Fatalf("changed (%d, %d), want (%d, %d)", pct, limit, tc.wantPct, tc.wantLimit)
			}
			if got := debug.SetGCPercent(150); got != tc.wantSetPct {
				t.Errorf("GC percent %d, want %d", got, tc.wantSetPct)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantSetLimit {
				t.Errorf("memory limit %d, want %d", got, tc.wantSetLimit)
			}
		})
	}
}
