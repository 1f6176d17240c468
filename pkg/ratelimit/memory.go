package ratelimit

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// shardCount spreads keys over independent locks; a power of two.
const shardCount = 64

// memStore holds one limiter's per-key state in process memory.
//
// Keys that have become idle (indistinguishable from a new key) are removed
// by a lazy sweep: once per policy horizon (min. 1 s), the first caller to
// notice walks all shards, one lock at a time, after its own decision. So
// memory follows the number of keys active within about two horizons, and
// no goroutine runs in the background.
type memStore struct {
	clock      Clock
	pol        policy
	epoch      time.Time // times are ns since epoch, so a real clock stays monotonic
	sweepEvery int64
	nextSweep  atomic.Int64
	seed       maphash.Seed
	shards     [shardCount]memShard
}

type memShard struct {
	mu sync.Mutex
	m  map[string]*memState
	_  [48]byte // keep neighbouring shard locks off one cache line
}

func newMemStore(clock Clock, pol policy) *memStore {
	s := &memStore{
		clock:      clock,
		pol:        pol,
		epoch:      clock.Now(),
		sweepEvery: int64(max(pol.horizon(), time.Second)),
		seed:       maphash.MakeSeed(),
	}
	s.nextSweep.Store(s.sweepEvery)
	for i := range s.shards {
		s.shards[i].m = make(map[string]*memState)
	}
	return s
}

// now must be read under the shard lock so a key's log stays in time order.
func (s *memStore) now() int64 { return s.since(s.clock.Now()) }

// since converts a reading of s.clock to the store's time base.
func (s *memStore) since(t time.Time) int64 { return int64(t.Sub(s.epoch)) }

func (s *memStore) shard(key string) *memShard {
	return &s.shards[maphash.String(s.seed, key)&(shardCount-1)]
}

// maybeSweep removes idle keys if a sweep is due; call it holding no lock.
func (s *memStore) maybeSweep(now int64) {
	next := s.nextSweep.Load()
	if now < next || !s.nextSweep.CompareAndSwap(next, now+s.sweepEvery) {
		return
	}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		now := s.now()
		for k, st := range sh.m {
			if s.pol.idle(st, now) {
				delete(sh.m, k)
			}
		}
		sh.mu.Unlock()
	}
}

// state returns key's state, creating it; the caller holds sh.mu.
func (s *memStore) state(sh *memShard, key string) *memState {
	st := sh.m[key]
	if st == nil {
		st = &memState{}
		sh.m[key] = st
	}
	return st
}

func (s *memStore) allow(key string) Decision {
	pol := s.pol
	sh := s.shard(key)
	sh.mu.Lock()
	now := s.now()
	st := s.state(sh, key)
	v := pol.check(st, now)
	if v.allowed {
		pol.commit(st, now)
	}
	sh.mu.Unlock()
	s.maybeSweep(now)
	if !v.allowed {
		return Decision{Limit: pol.limit(), RetryAfter: v.retry}
	}
	return Decision{Allowed: true, Limit: pol.limit(), Remaining: v.remaining}
}

// keys counts stored keys (for tests of the sweep).
func (s *memStore) keys() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}
