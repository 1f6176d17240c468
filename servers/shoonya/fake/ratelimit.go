package fake

import (
	"sync"
	"time"
)

// limiter enforces fixed one-second and one-minute windows per key.
type limiter struct {
	cfg RateLimit
	mu  sync.Mutex
	m   map[string]*window
}

type window struct {
	sec, min           int64
	secCount, minCount int
}

func newLimiter(cfg RateLimit) *limiter { return &limiter{cfg: cfg, m: map[string]*window{}} }

func (l *limiter) allow(key string, now time.Time) bool {
	if l.cfg.Disabled {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.m[key]
	if w == nil {
		w = &window{}
		l.m[key] = w
	}
	sec, min := now.Unix(), now.Unix()/60
	if w.sec != sec {
		w.sec, w.secCount = sec, 0
	}
	if w.min != min {
		w.min, w.minCount = min, 0
	}
	if w.secCount >= l.cfg.PerSecond || w.minCount >= l.cfg.PerMinute {
		return false
	}
	w.secCount++
	w.minCount++
	return true
}
