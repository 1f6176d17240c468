package serve

import (
	"math"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
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
	defer servingPace.Store(servingPace.Load())
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

// TestLargeBodyPace: a large body collects at the default pace until the last
// large body is done; small bodies and an operator's GOGC are left alone.
func TestLargeBodyPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer servingPace.Store(servingPace.Load())
	pct := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	cases := []struct {
		name    string
		ours    bool    // the serving pace was set by tuneGCForServing
		sizes   []int64 // bodies in flight together
		whileIn int     // GC percent while they are all held
	}{
		{"one large body", true, []int64{bigAllocBytes}, defaultGCPercent},
		{"two overlapping large bodies", true, []int64{4 << 20, 2 << 20}, defaultGCPercent},
		{"a large body among small ones", true, []int64{100, 4 << 20, 512}, defaultGCPercent},
		{"small bodies only", true, []int64{100, bigAllocBytes - 1}, servingGCPercent},
		{"operator's GOGC", false, []int64{4 << 20}, servingGCPercent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(servingGCPercent)
			servingPace.Store(tc.ours)
			var dones []func()
			for _, n := range tc.sizes {
				dones = append(dones, largeBodyPace(n))
			}
			if got := pct(); got != tc.whileIn {
				t.Fatalf("GC percent %d while held, want %d", got, tc.whileIn)
			}
			for i, done := range dones {
				done()
				want := servingGCPercent
				for _, n := range tc.sizes[i+1:] {
					if n >= bigAllocBytes && tc.ours {
						want = defaultGCPercent
					}
				}
				if got := pct(); got != want {
					t.Fatalf("GC percent %d after %d of %d ended, want %d", got, i+1, len(dones), want)
				}
			}
		})
	}
}

// TestBodyLimitPacesByWhatWasRead: bodyLimit switches to the default pace for
// a large body while the handler runs, and judges by the bytes read: a small
// chunked body (which reserves the most a body may be) leaves the serving pace.
func TestBodyLimitPacesByWhatWasRead(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(servingGCPercent))
	defer servingPace.Store(servingPace.Load())
	servingPace.Store(true)
	seen := make(chan int, 1)
	h := bodyLimit(DefaultLimits(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		seen <- p
	}))
	cases := []struct {
		name    string
		size    int
		chunked bool
		want    int
	}{
		{"small body", 100, false, servingGCPercent},
		{"small chunked body", 100, true, servingGCPercent},
		{"large body", 2 << 20, false, defaultGCPercent},
		{"large chunked body", 2 << 20, true, defaultGCPercent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(strings.Repeat("x", tc.size)))
			if tc.chunked {
				req.ContentLength = -1 // as a chunked request arrives: length unknown
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
			if got := <-seen; got != tc.want {
				t.Errorf("GC percent %d while handled, want %d", got, tc.want)
			}
			if got := debug.SetGCPercent(servingGCPercent); got != servingGCPercent {
				t.Errorf("GC percent %d after, want %d", got, servingGCPercent)
			}
		})
	}
}
