package ratelimit

import (
	"context"
	"testing"
	"time"
)

// TestAllDoesNotConsumeOnDeny: 2/s AND 5/min. Ten calls per second: if the
// calls denied by the 2/s limit counted against 5/min, the minute would be
// spent in the first second.
func TestAllDoesNotConsumeOnDeny(t *testing.T) {
	t.Parallel()
	mixes := []struct {
		name             string
		perSec, perMin   string // backend of each limiter: "memory" or "redis"
		bucketForSeconds bool
	}{
		{"memory", "memory", "memory", false},
		{"redis", "redis", "redis", false},
		{"redis gcra+sliding", "redis", "redis", true},
		{"memory per second, redis per minute", "memory", "redis", false},
		{"redis per second, memory per minute", "redis", "memory", true},
	}
	for _, mix := range mixes {
		t.Run(mix.name, func(t *testing.T) {
			t.Parallel()
			opts := map[string]func(string) []Option{}
			for _, be := range backends() {
				if be.name == mix.perSec || be.name == mix.perMin {
					opts[be.name] = be.setup(t)
				}
			}
			clock := newFakeClock()
			perSec := NewSlidingWindow(2, time.Second, append(opts[mix.perSec]("s"), WithClock(clock))...)
			if mix.bucketForSeconds {
				perSec = NewTokenBucket(2, time.Second, 2, append(opts[mix.perSec]("s"), WithClock(clock))...)
			}
			perMin := NewSlidingWindow(5, time.Minute, append(opts[mix.perMin]("m"), WithClock(clock))...)
			l := All(perSec, perMin)

			admitted := func() int {
				n := 0
				for i := 0; i < 10; i++ {
					d, err := l.Allow(context.Background(), "acct")
					if err != nil {
						t.Fatal(err)
					}
					if d.Allowed {
						n++
					}
				}
				return n
			}
			for sec, want := range []int{2, 2, 1, 0} {
				clock.Set(t0.Add(time.Duration(sec) * time.Second))
				if got := admitted(); got != want {
					t.Fatalf("second %d: admitted %d, want %d", sec, got, want)
				}
			}
			// The minute limit now decides: its oldest entry (t0) leaves at t0+1m.
			clock.Set(t0.Add(3 * time.Second))
			d, err := l.Allow(context.Background(), "acct")
			if err != nil {
				t.Fatal(err)
			}
			if want := denied(5, 57*time.Second); d != want {
				t.Fatalf("got %+v, want %+v", d, want)
			}
			clock.Set(t0.Add(time.Minute))
			d, err = l.Allow(context.Background(), "acct")
			if err != nil || !d.Allowed {
				t.Fatalf("after a minute: %+v, %v", d, err)
			}
		})
	}
}

func TestAllDecisionFields(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	a := NewSlidingWindow(3, time.Second, WithClock(clock))
	b := NewSlidingWindow(10, time.Minute, WithClock(clock))
	l := All(a, All(b, a)) // nested and duplicated: flattened
	want := []Decision{allowed(3, 2), allowed(3, 1), allowed(3, 0), denied(3, time.Second)}
	for i, w := range want {
		d, _ := l.Allow(context.Background(), "k")
		if d != w {
			t.Fatalf("call %d: %+v, want %+v", i, d, w)
		}
	}
	for _, at := range []time.Duration{5 * time.Second, 6 * time.Second} { // b: 7, then 4, then 1 left
		clock.Set(t0.Add(at))
		for i := 0; i < 3; i++ {
			_, _ = l.Allow(context.Background(), "k")
		}
	}
	clock.Set(t0.Add(10 * time.Second))
	if d, _ := l.Allow(context.Background(), "k"); d != allowed(10, 0) { // b is now the tighter one
		t.Fatalf("got %+v", d)
	}
	if d, _ := l.Allow(context.Background(), "k"); d != denied(10, 50*time.Second) { // b denies until t0+1m
		t.Fatalf("got %+v", d)
	}
}

// TestAllNoDeadlock runs two composites over the same limiters in opposite
// orders concurrently with the limiters' own Allow.
func TestAllNoDeadlock(t *testing.T) {
	t.Parallel()
	a := NewSlidingWindow(1000000, time.Minute)
	b := NewTokenBucket(1000000, time.Second, 1000000)
	ls := []Limiter{All(a, b), All(b, a), a, b}
	if got := hammer(t, 16, 2000, "k", ls...); got != 16*2000 {
		t.Fatalf("admitted %d", got)
	}
}
