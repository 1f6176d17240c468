package cache

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	embedded "github.com/mcpfleet/mcpfleet/pkg/store"
)

// BenchmarkHitLatency is one fresh hit per backend (1,000 keys, serially),
// reported as median and 99th percentile in µs.
func BenchmarkHitLatency(b *testing.B) {
	db := func(b *testing.B) *embedded.DB {
		d, err := embedded.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = d.Close() })
		return d
	}
	cases := []struct {
		name string
		opts func(b *testing.B) []Option
	}{
		{"memory", func(*testing.B) []Option { return nil }},
		{"store", func(b *testing.B) []Option { return []Option{WithStore(db(b), "bench:")} }},
		{"redis", func(b *testing.B) []Option { return []Option{WithRedis(redistest.Start(b), "bench:")} }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			cc := New[Feed](time.Hour, c.opts(b)...)
			keys := make([]string, 1000)
			for i := range keys {
				keys[i] = "q" + strconv.Itoa(i)
				if err := cc.Set(ctx, keys[i], Feed{Query: keys[i], Items: []string{"a", "b"}}); err != nil {
					b.Fatal(err)
				}
			}
			fetch := func(context.Context) (Feed, error) { b.Error("fetch on a hit"); return Feed{}, nil }
			lat := make([]time.Duration, 0, b.N)
			i := 0
			for b.Loop() {
				t := time.Now()
				if _, m, _ := cc.Get(ctx, keys[i%len(keys)], fetch); !m.Hit {
					b.Fatal("miss")
				}
				lat = append(lat, time.Since(t))
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
		})
	}
}
