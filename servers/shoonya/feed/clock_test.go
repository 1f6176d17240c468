package feed

import (
	"testing"
	"time"
)

// TestCoarseClockTicksOnlyWhileRead: an unread clock stops its ticker (an
// idle server is not woken every millisecond), a read restarts it, the time
// read is close to the time now throughout, and a closed stop ends it.
func TestCoarseClockTicksOnlyWhileRead(t *testing.T) {
	stop := make(chan struct{})
	c := NewCoarseClock(50*time.Microsecond, stop)
	if c.ticking() {
		t.Fatal("ticking before the first read")
	}
	near := func() {
		t.Helper()
		got, now := c.UnixNano(), time.Now().UnixNano()
		if d := time.Duration(now - got); d < 0 || d > time.Second {
			t.Fatalf("clock reads %v behind the time now", d)
		}
	}
	for range 3 { // start, stop when unread, start again
		near()
		if !c.ticking() {
			t.Fatal("a read did not start the ticker")
		}
		for range 50 {
			near()
			time.Sleep(100 * time.Microsecond)
		}
		waitUntil(t, func() bool { return !c.ticking() })
		if c.ns.Load() != 0 {
			t.Fatal("a stopped clock still holds its last tick")
		}
	}
	near()
	close(stop)
	waitUntil(t, func() bool { return !c.ticking() })
	near()
	if c.ticking() {
		t.Fatal("a read after stop restarted the ticker")
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
	}
}
