package cache

import "sync"

// Bounded is a concurrent map of at most max entries that starts over when
// full: for memos of pure results (an encoded answer, a rendered chart, a
// settled feed), where an occasional refill costs less than an LRU's
// bookkeeping on every hit. The zero value is ready, holding at most
// DefaultBoundedMax entries; set Max before first use for another bound.
type Bounded[K comparable, V any] struct {
	Max int
	mu  sync.RWMutex
	m   map[K]V
}

// DefaultBoundedMax is a Bounded's size when Max is 0.
const DefaultBoundedMax = 1024

// Get returns k's value.
func (b *Bounded[K, V]) Get(k K) (V, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	v, ok := b.m[k]
	return v, ok
}

// Put stores v for k, first dropping every entry when the map is full.
func (b *Bounded[K, V]) Put(k K, v V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	limit := b.Max
	if limit <= 0 {
		limit = DefaultBoundedMax
	}
	if b.m == nil || len(b.m) >= limit {
		b.m = make(map[K]V, min(limit, 64))
	}
	b.m[k] = v
}

// Len is the number of entries held.
func (b *Bounded[K, V]) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.m)
}
