package client

import "sync"

// memo keeps values decoded from cached bodies, keyed by the body's first
// byte: a memory-cache hit hands out the same bytes, so it need not be decoded
// again. It is bounded by clearing (the cache refills it within a TTL).
type memo[V any] struct {
	mu sync.Mutex
	m  map[*byte]V
}

const memoMax = 1024

func (m *memo[V]) get(k *byte) (V, bool) {
	var zero V
	if k == nil {
		return zero, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[k]
	return v, ok
}

func (m *memo[V]) put(k *byte, v V) {
	if k == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoMax {
		m.m = map[*byte]V{}
	}
	m.m[k] = v
}
