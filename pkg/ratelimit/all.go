package ratelimit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// All returns a Limiter that admits a call only if every limiter admits it.
// A call denied by any limiter is counted by none of them, so a tight limit
// never eats into a looser one (Shoonya: 20/s AND 200/min).
//
// How it stays exact:
//   - memory limiters: the key's shards of all of them are locked (in one
//     global order, so composites never deadlock), all are checked, and only
//     then all are charged;
//   - Redis limiters: one Lua script checks every key and writes only if all
//     admit. They must therefore share one Redis client;
//   - a mix: memory limiters are checked and held locked while the Redis
//     script runs, and are charged only if Redis admitted the call.
//
// When denied, RetryAfter is the longest wait among the limiters that denied
// (with a mix, Redis is not consulted when memory denies, so it is a lower
// bound). When admitted, Limit and Remaining are those of the limiter with
// the least Remaining.
//
// All panics if given a Limiter not made by this package, or Redis limiters
// on different clients; both are programming errors. Nested Alls are
// flattened and duplicates removed.
func All(limiters ...Limiter) Limiter {
	m := &multi{}
	seen := map[uint64]bool{}
	var add func(l Limiter)
	add = func(l Limiter) {
		switch l := l.(type) {
		case *limiter:
			if seen[l.id] {
				return
			}
			seen[l.id] = true
			if l.mem != nil {
				m.mem = append(m.mem, l)
				return
			}
			if len(m.red) > 0 && !m.red[0].sameBackend(l) {
				panic("ratelimit.All: shared limiters must share one Redis client or one store")
			}
			m.red = append(m.red, l)
		case *multi:
			for _, p := range l.mem {
				add(p)
			}
			for _, p := range l.red {
				add(p)
			}
		default:
			panic(fmt.Sprintf("ratelimit.All: unsupported Limiter %T (use limiters from this package)", l))
		}
	}
	for _, l := range limiters {
		add(l)
	}
	if len(m.mem)+len(m.red) == 0 {
		panic("ratelimit.All: no limiters")
	}
	slices.SortFunc(m.mem, func(a, b *limiter) int { return cmp.Compare(a.id, b.id) })
	for _, l := range m.mem {
		m.pols = append(m.pols, l.pol)
	}
	for _, l := range m.red {
		m.pols = append(m.pols, l.pol)
	}
	return m
}

type multi struct {
	mem  []*limiter // sorted by id: the lock order
	red  []*limiter // all on red[0]'s Redis client or store
	pols []policy   // mem's then red's
}

// maxStack is how many memory limiters All handles without allocating.
const maxStack = 4

func (m *multi) Allow(ctx context.Context, key string) (Decision, error) {
	if len(m.mem) == 0 {
		return allowShared(ctx, m.red[0].o, m.red, key)
	}
	var (
		shardBuf [maxStack]*memShard
		stateBuf [maxStack]*memState
		nowBuf   [maxStack]int64
		vBuf     [2 * maxStack]verdict
	)
	shards, states, nows := shardBuf[:0], stateBuf[:0], nowBuf[:0]
	vs := vBuf[:0]
	for _, l := range m.mem {
		sh := l.mem.shard(key)
		sh.mu.Lock()
		shards = append(shards, sh)
	}
	unlock := func() {
		for _, sh := range shards {
			sh.mu.Unlock()
		}
		for i, l := range m.mem {
			l.mem.maybeSweep(nows[i])
		}
	}

	memOK := true
	var clock Clock
	var t time.Time
	for i, l := range m.mem {
		if clock == nil || l.o.clock != clock { // one clock reading serves all limiters on it
			clock, t = l.o.clock, l.o.clock.Now()
		}
		nows = append(nows, l.mem.since(t))
		states = append(states, l.mem.state(shards[i], key))
		v := l.pol.check(states[i], nows[i])
		vs = append(vs, v)
		memOK = memOK && v.allowed
	}
	if !memOK {
		unlock()
		return decide(m.pols[:len(m.mem)], vs), nil
	}
	if len(m.red) > 0 {
		rvs, err := sharedVerdicts(ctx, m.red[0].o, m.red, key)
		if err != nil {
			unlock()
			return Decision{}, err
		}
		vs = append(vs, rvs...)
	}
	d := decide(m.pols, vs)
	if d.Allowed {
		for i, l := range m.mem {
			l.pol.commit(states[i], nows[i])
		}
	}
	unlock()
	return d, nil
}
