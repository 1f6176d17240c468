package cache

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

func benchHit(b *testing.B, c *Cache[Feed]) {
	ctx := context.Background()
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "q" + strconv.Itoa(i)
		if err := c.Set(ctx, keys[i], Feed{Query: keys[i], Items: []string{"a", "b"}}); err != nil {
			b.Fatal(err)
		}
	}
	fetch := func(context.Context) (Feed, error) { b.Error("fetch on a hit"); return Feed{}, nil }
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, m, _ := c.Get(ctx, keys[i%len(keys)], fetch); !m.Hit {
				b.Fatal("miss")
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		var seq atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			i := int(seq.Add(1)) * 101
			for pb.Next() {
				_, _, _ = c.Get(ctx, keys[i%len(keys)], fetch)
				i++
			}
		})
	})
}

func BenchmarkMemoryHit(b *testing.B) { benchHit(b, New[Feed](time.Hour)) }

func BenchmarkRedisHit(b *testing.B) {
	benchHit(b, New[Feed](time.Hour, WithRedis(redistest.Start(b), "bench:")))
}

// BenchmarkAnchorTimeNow is the anchor for the memory figures: a hit reads
// the clock once, and on some VMs that dominates.
func BenchmarkAnchorTimeNow(b *testing.B) {
	var t time.Time
	for b.Loop() {
		t = time.Now()
	}
	_ = t
}
