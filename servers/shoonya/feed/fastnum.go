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
type CoarseClock struct{ ns atomic.Int64 }

// NewCoarseClock starts a clock that ticks until stop is closed.
func NewCoarseClock(every time.Duration, stop <-chan struct{}) *CoarseClock {
	c := &CoarseClock{}
	c.ns.Store(time.Now().UnixNano())
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				c.ns.Store(now.UnixNano())
			}
		}
	}()
	return c
}

// UnixNano is the last tick's time.
func (c *CoarseClock) UnixNano() int64 { return c.ns.Load() }
