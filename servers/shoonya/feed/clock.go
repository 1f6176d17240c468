package feed

import (
	"sync/atomic"
	"time"
)

// CoarseClock is a clock read with one atomic load, refreshed every tick:
// time.Now costs more than a whole merge on some virtual machines.
//
// It ticks only while it is read: after idleTicks ticks without a read it
// stops, and the next read restarts it (that read pays one time.Now). An
// always-on 1 ms ticker woke the whole server a thousand times a second
// with no feed in use: ~4% of a core while idle, and a few µs of every
// tool call's CPU.
type CoarseClock struct {
	ns      atomic.Int64 // last tick; 0 while stopped
	read    atomic.Bool  // read since the last tick
	running atomic.Bool  // a ticker goroutine is live
	closed  atomic.Bool  // stop was closed: never restart
	every   time.Duration
	stop    <-chan struct{}
}

// idleTicks is how many ticks without a read stop the clock (1 s at 1 ms).
const idleTicks = 1000

// NewCoarseClock makes a clock that ticks every interval while read, until
// stop is closed.
func NewCoarseClock(every time.Duration, stop <-chan struct{}) *CoarseClock {
	return &CoarseClock{every: every, stop: stop}
}

// UnixNano is the last tick's time, or the time now when the clock was
// stopped (it starts again).
func (c *CoarseClock) UnixNano() int64 {
	if ns := c.ns.Load(); ns != 0 {
		if !c.read.Load() { // one store per tick at most, not per read
			c.read.Store(true)
		}
		return ns
	}
	now := time.Now().UnixNano()
	if !c.closed.Load() && c.running.CompareAndSwap(false, true) {
		c.read.Store(true)
		c.ns.Store(now)
		go c.tick()
	}
	return now
}

// tick refreshes ns until the clock goes unread for idleTicks ticks or stop
// closes; it clears ns before it clears running, so a read that finds the
// clock stopped either restarts it or finds it still winding down (and pays
// time.Now once more).
func (c *CoarseClock) tick() {
	t := time.NewTicker(c.every)
	defer t.Stop()
	idle := 0
	for {
		select {
		case <-c.stop:
			c.closed.Store(true)
			c.ns.Store(0)
			c.running.Store(false)
			return
		case now := <-t.C:
			if c.read.Swap(false) {
				idle = 0
			} else if idle++; idle >= idleTicks {
				c.ns.Store(0)
				c.running.Store(false)
				return
			}
			c.ns.Store(now.UnixNano())
		}
	}
}

// ticking reports whether a ticker goroutine is live (tests).
func (c *CoarseClock) ticking() bool { return c.running.Load() }
