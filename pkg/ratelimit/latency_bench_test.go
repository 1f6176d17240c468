package ratelimit

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// reportLatency times each call of op and reports the median and the 99th
// percentile in µs beside ns/op (each reading costs one clock read, see
// BenchmarkAnchorTimeNow).
func reportLatency(b *testing.B, op func(i int) error) {
	b.Helper()
	lat := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		t := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// BenchmarkDecisionLatency is one "20 per 10 minutes" decision (web-search's
// quota) per backend, over 10,000 users, serially.
func BenchmarkDecisionLatency(b *testing.B) {
	keys := benchKeyNames()
	backends := map[string]func(b *testing.B) []Option{
		"memory": func(*testing.B) []Option { return nil },
		"store": func(b *testing.B) []Option {
			db := storetest.Open(b, filepath.Join(b.TempDir(), "bench.db"))
			return []Option{WithStore(db, "rl:bench:")}
		},
		"redis": func(b *testing.B) []Option { return []Option{WithRedis(redistest.Start(b), "rl:bench:")} },
	}
	for _, name := range []string{"memory", "store", "redis"} {
		b.Run(name, func(b *testing.B) {
			l := NewSlidingWindow(20, 10*time.Minute, backends[name](b)...)
			ctx := context.Background()
			reportLatency(b, func(i int) error {
				_, err := l.Allow(ctx, keys[i%benchKeys])
				return err
			})
		})
	}
}
