package feed

import (
	"math"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"
)

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNum parses a feed number. Feed values are short decimals ("118.45",
// "162220"): when the digits fit in 2^53 and there are at most 22 decimals,
// mantissa / 10^k is exactly what strconv.ParseFloat returns (both operands
// are exact and IEEE division rounds correctly), at a fraction of the cost.
// Anything else goes to strconv.
func parseNum(b []byte) (float64, bool) {
	var mant uint64
	digits, frac := 0, -1
	neg, sawDigit := false, false
	i := 0
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i = 1
	}
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if digits >= 15 {
				return slowNum(b)
			}
			sawDigit = true
			mant = mant*10 + uint64(c-'0')
			if mant != 0 {
				digits++
			}
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			return slowNum(b)
		}
	}
	if !sawDigit {
		return slowNum(b)
	}
	f := float64(mant)
	if frac > 0 {
		if frac >= len(pow10) {
			return slowNum(b)
		}
		f /= pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

func slowNum(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

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
