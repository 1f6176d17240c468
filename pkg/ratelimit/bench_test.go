package ratelimit

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

const benchKeys = 10000

func benchKeyNames() []string {
	keys := make([]string, benchKeys)
	for i := range keys {
		keys[i] = "user-" + strconv.Itoa(i)
	}
	return keys
}

// benchAllow measures Allow over many keys, serially and from all CPUs.
// Limits are generous so that both admitted and denied paths are exercised
// the way a busy server sees them (mostly admitted).
func benchAllow(b *testing.B, l Limiter) {
	keys := benchKeyNames()
	ctx := context.Background()
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := l.Allow(ctx, keys[i%benchKeys]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		var seq atomic.Uint64
		b.RunParallel(func(pb *testing.PB) {
			i := int(seq.Add(1)) * 7919
			for pb.Next() {
				if _, err := l.Allow(ctx, keys[i%benchKeys]); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

func BenchmarkMemorySlidingWindowAllow(b *testing.B) {
	benchAllow(b, NewSlidingWindow(20, time.Second))
}

func BenchmarkMemoryTokenBucketAllow(b *testing.B) {
	benchAllow(b, NewTokenBucket(20, time.Second, 20))
}

func BenchmarkMemoryAllAllow(b *testing.B) {
	benchAllow(b, All(NewTokenBucket(20, time.Second, 20), NewSlidingWindow(200, time.Minute)))
}

func BenchmarkRedisSlidingWindowAllow(b *testing.B) {
	benchAllow(b, NewSlidingWindow(20, time.Second, WithRedis(redistest.Start(b), "rl:bench:")))
}

func BenchmarkRedisTokenBucketAllow(b *testing.B) {
	benchAllow(b, NewTokenBucket(20, time.Second, 20, WithRedis(redistest.Start(b), "rl:bench:")))
}

// BenchmarkAnchorTimeNow is the anchor for the memory figures: every
// decision reads the clock once, and on some VMs that dominates.
func BenchmarkAnchorTimeNow(b *testing.B) {
	var t time.Time
	for b.Loop() {
		t = time.Now()
	}
	_ = t
}
