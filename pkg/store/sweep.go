package store

import (
	"sync/atomic"
	"time"
)

// Sweeper says when a table's expired rows are due to be deleted: at most
// once per interval per process, by the first caller to notice, so no
// goroutine runs in the background and a busy table stays small.
type Sweeper struct {
	every time.Duration
	next  atomic.Int64 // unix ns
}

// NewSweeper sweeps at most once per every (minimum one second).
func NewSweeper(every time.Duration) *Sweeper {
	return &Sweeper{every: max(every, time.Second)}
}

// Due reports whether a sweep should run now; true for one caller per interval.
func (s *Sweeper) Due(now time.Time) bool {
	n, next := now.UnixNano(), s.next.Load()
	return n >= next && s.next.CompareAndSwap(next, n+int64(s.every))
}
