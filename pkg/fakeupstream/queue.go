package fakeupstream

import (
	"sync"
	"time"
)

// Queue holds injected faults in the order they were added, and a latency
// added to every answer. Take applies the first fault that matches and
// consumes one of its uses; a fault added with uses 0 applies until Clear.
// Safe for concurrent use.
type Queue[F any] struct {
	mu      sync.Mutex
	items   []*entry[F]
	latency time.Duration
}

type entry[F any] struct {
	fault F
	left  int // uses left; 0 = until cleared
}

// Add appends a fault that applies to the next uses matching requests (0: until cleared).
func (q *Queue[F]) Add(f F, uses int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, &entry[F]{fault: f, left: uses})
}

// Clear removes every fault and the latency.
func (q *Queue[F]) Clear() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items, q.latency = nil, 0
}

// SetLatency delays every answer by d (a slow upstream) until Clear.
func (q *Queue[F]) SetLatency(d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.latency = d
}

// Latency is the delay every answer gets.
func (q *Queue[F]) Latency() time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.latency
}

// Len is the number of faults still queued.
func (q *Queue[F]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Take returns a copy of the first fault for which match is true (nil match:
// the first fault) and consumes one use of it; ok is false when none matches.
func (q *Queue[F]) Take(match func(*F) bool) (f F, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, e := range q.items {
		if match != nil && !match(&e.fault) {
			continue
		}
		if e.left > 0 {
			e.left--
			if e.left == 0 {
				q.items = append(q.items[:i:i], q.items[i+1:]...)
			}
		}
		return e.fault, true
	}
	return f, false
}

// Faults is a copy of the queued faults, in order.
func (q *Queue[F]) Faults() []F {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]F, len(q.items))
	for i, e := range q.items {
		out[i] = e.fault
	}
	return out
}

// Remove drops every queued fault for which match is true (nil match: all of
// them) and keeps the latency.
func (q *Queue[F]) Remove(match func(*F) bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.remove(match)
}

// Replace removes the faults match picks (nil: all) and queues f for uses
// requests in one step: for a fake whose faults are a state (one for the
// whole upstream, or one per route) rather than a sequence.
func (q *Queue[F]) Replace(match func(*F) bool, f F, uses int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.remove(match)
	q.items = append(q.items, &entry[F]{fault: f, left: uses})
}

func (q *Queue[F]) remove(match func(*F) bool) {
	kept := q.items[:0:0]
	for _, e := range q.items {
		if match != nil && !match(&e.fault) {
			kept = append(kept, e)
		}
	}
	q.items = kept
}
