package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// TestSummarizeShowsZero: a price of exactly 0 is a figure, not an absent
// one, and change and change_pct are over the first and last points.
func TestSummarizeShowsZero(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   []float64
		want string
	}{
		{"falls to zero", []float64{0.5, 0.2, 0}, `"first":0.5,"last":0,"min":0,"max":0.5,"change":-0.5,"change_pct":-100`},
		{"from zero: no percent", []float64{0, 0.25}, `"first":0,"last":0.25,"min":0,"max":0.25,"change":0.25,"window"`},
		{"flat", []float64{0.4, 0.4}, `"first":0.4,"last":0.4,"min":0.4,"max":0.4,"change":0,"change_pct":0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pts []client.Point
			for i, p := range tc.ps {
				pts = append(pts, client.Point{T: extract.Int(1 + i), P: extract.Num(p)})
			}
			out := HistoryOut{Points: [][]float64{}, Window: []int64{}}
			summarize(&out, pts)
			b, _ := json.Marshal(out)
			if !strings.Contains(string(b), tc.want) {
				t.Fatalf("%s\nwant %s", b, tc.want)
			}
		})
	}
}

// TestAgeFidelity: interval=max reaches an open market's start within the
// CLOB's point cap.
func TestAgeFidelity(t *testing.T) {
	for _, tc := range []struct {
		days float64
		want int
	}{{1, 1}, {2.7, 1}, {3, 5}, {30, 15}, {365, 180}, {1000, 360}, {3000, 1440}} {
		if got := ageFidelity(timeDays(tc.days)); got != tc.want {
			t.Errorf("%v days: fidelity %d, want %d", tc.days, got, tc.want)
		}
	}
}

func timeDays(d float64) time.Duration { return time.Duration(d * 24 * float64(time.Hour)) }
