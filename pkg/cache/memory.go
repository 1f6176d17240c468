package cache

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// memStore is an LRU map. Entries older than keep (ttl + staleFor) are dead:
// get drops them, and a sweep once per keep removes the rest.
type memStore[V any] struct {
	mu         sync.Mutex
	items      map[string]*list.Element // of *memItem[V]
	lru        list.List                // front = most recently used
	maxEntries int
	keep       time.Duration
	nextSweep  time.Time
}

type memItem[V any] struct {
	key string
	e   entry[V]
}

func newMemStore[V any](maxEntries int, keep time.Duration) *memStore[V] {
	return &memStore[V]{items: map[string]*list.Element{}, maxEntries: maxEntries, keep: keep}
}

func (m *memStore[V]) get(_ context.Context, key string, now time.Time) (entry[V], bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[key]
	if !ok {
		return entry[V]{}, false, nil
	}
	it := el.Value.(*memItem[V])
	if now.Sub(it.e.FetchedAt) >= m.keep {
		m.remove(el)
		return entry[V]{}, false, nil
	}
	m.lru.MoveToFront(el)
	return it.e, true, nil
}

func (m *memStore[V]) set(_ context.Context, key string, e entry[V], now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !now.Before(m.nextSweep) {
		for k, el := range m.items {
			if now.Sub(el.Value.(*memItem[V]).e.FetchedAt) >= m.keep {
				delete(m.items, k)
				m.lru.Remove(el)
			}
		}
		m.nextSweep = now.Add(max(m.keep, time.Minute))
	}
	if el, ok := m.items[key]; ok {
		el.Value.(*memItem[V]).e = e
		m.lru.MoveToFront(el)
		return nil
	}
	m.items[key] = m.lru.PushFront(&memItem[V]{key: key, e: e})
	for m.maxEntries > 0 && len(m.items) > m.maxEntries {
		m.remove(m.lru.Back())
	}
	return nil
}

func (m *memStore[V]) del(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.items[key]; ok {
		m.remove(el)
	}
	return nil
}

func (m *memStore[V]) remove(el *list.Element) {
	delete(m.items, el.Value.(*memItem[V]).key)
	m.lru.Remove(el)
}

func (m *memStore[V]) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items)
}
