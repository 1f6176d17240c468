package ratelimit

import (
	"fmt"
	"math"
	"time"
)

// policy is one algorithm's arithmetic. The memory backend runs check and
// commit under a shard lock; the Redis backend runs the same arithmetic in
// Lua (see admitLua) from the parameters returned by lua.
type policy interface {
	// check decides a call at now (ns on the store's clock) without
	// consuming anything; it may drop state that no longer counts.
	check(s *memState, now int64) verdict
	// commit consumes one call at now; only called after check allowed it.
	commit(s *memState, now int64)
	// idle reports whether s is indistinguishable from a fresh key.
	idle(s *memState, now int64) bool
	// horizon is how long a key can matter after its last admission.
	horizon() time.Duration
	limit() int
	// lua returns the script's kind and two parameters (µs or counts).
	lua() (kind, a, b int64)
}

// verdict is one policy's answer, before it becomes a Decision.
type verdict struct {
	allowed   bool
	remaining int
	retry     time.Duration
}

// memState is a key's state in memory; each policy uses its own fields.
type memState struct {
	tat  int64   // GCRA: theoretical arrival time
	log  []int64 // sliding log: ring of admission times, oldest at head
	head int
	n    int
}

const (
	kindSliding = 1
	kindGCRA    = 2
)

// slidingPolicy admits at most limit calls in any interval of length window.
// An admission at t counts while now < t+window.
type slidingPolicy struct {
	size   int
	window time.Duration
}

func (p slidingPolicy) check(s *memState, now int64) verdict {
	w := int64(p.window)
	for s.n > 0 && s.log[s.head]+w <= now {
		s.head++
		if s.head == len(s.log) {
			s.head = 0
		}
		s.n--
	}
	if s.n < p.size {
		return verdict{allowed: true, remaining: p.size - s.n - 1}
	}
	// The log holds exactly limit entries: the oldest must leave.
	return verdict{retry: time.Duration(s.log[s.head] + w - now)}
}

func (p slidingPolicy) commit(s *memState, now int64) {
	if s.n == len(s.log) { // grow the ring lazily: most keys never fill it
		grown := make([]int64, min(max(2*len(s.log), 4), p.size))
		for i := 0; i < s.n; i++ {
			grown[i] = s.log[(s.head+i)%len(s.log)]
		}
		s.log, s.head = grown, 0
	}
	s.log[(s.head+s.n)%len(s.log)] = now
	s.n++
}

func (p slidingPolicy) idle(s *memState, now int64) bool {
	return s.n == 0 || s.log[(s.head+s.n-1)%len(s.log)]+int64(p.window) <= now
}

func (p slidingPolicy) horizon() time.Duration { return p.window }
func (p slidingPolicy) limit() int             { return p.size }
func (p slidingPolicy) lua() (int64, int64, int64) {
	return kindSliding, int64(p.size), max(p.window.Microseconds(), 1)
}

// gcraPolicy is GCRA (virtual scheduling): a call at now is admitted when
// max(tat, now) + interval − burst·interval ≤ now, and then
// tat = max(tat, now) + interval. It behaves as a token bucket of size burst
// refilled by one token per interval.
type gcraPolicy struct {
	interval time.Duration
	burst    int
}

func newGCRAPolicy(rate int, per time.Duration, burst int) gcraPolicy {
	interval := per / time.Duration(rate)
	if interval <= 0 {
		interval = 1 // faster than one call per ns is unlimited for our purposes
	}
	if int64(burst) > math.MaxInt64/4/int64(interval) {
		panic(fmt.Sprintf("ratelimit: NewTokenBucket(%d, %v, %d): burst·interval overflows", rate, per, burst))
	}
	return gcraPolicy{interval: interval, burst: burst}
}

func (p gcraPolicy) check(s *memState, now int64) verdict {
	t := int64(p.interval)
	allowAt := max(s.tat, now) + t - t*int64(p.burst)
	if now < allowAt {
		return verdict{retry: time.Duration(allowAt - now)}
	}
	return verdict{allowed: true, remaining: int((now - allowAt) / t)}
}

func (p gcraPolicy) commit(s *memState, now int64) { s.tat = max(s.tat, now) + int64(p.interval) }
func (p gcraPolicy) idle(s *memState, now int64) bool {
	return s.tat <= now
}
func (p gcraPolicy) horizon() time.Duration { return p.interval * time.Duration(p.burst) }
func (p gcraPolicy) limit() int             { return p.burst }
func (p gcraPolicy) lua() (int64, int64, int64) {
	return kindGCRA, max(p.interval.Microseconds(), 1), int64(p.burst)
}

// decide turns the verdicts of one call's policies into a Decision: denied
// if any denied (reporting the longest wait), otherwise admitted with the
// smallest Remaining.
func decide(pols []policy, vs []verdict) Decision {
	pick, denied := -1, false
	for i, v := range vs {
		switch {
		case !v.allowed && (!denied || v.retry > vs[pick].retry):
			pick, denied = i, true
		case !denied && (pick < 0 || v.remaining < vs[pick].remaining):
			pick = i
		}
	}
	if denied {
		return Decision{Limit: pols[pick].limit(), RetryAfter: vs[pick].retry}
	}
	return Decision{Allowed: true, Limit: pols[pick].limit(), Remaining: vs[pick].remaining}
}
