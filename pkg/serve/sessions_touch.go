package serve

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

// touchQueue coalesces concurrent session lookups into one pipelined Redis
// round trip (issue 20: over HTTP the lookup's write and read syscalls were a
// fifth of a cached call's server CPU). No lookup is answered from memory:
// each one is sent to Redis after its request arrived, so a DELETE answered
// on any replica is seen by every later request, as before.
//
// Leader and followers, no goroutine of its own: a lookup that finds no round
// trip in flight sends its own at once (the sequential case costs what a
// plain call does); one that finds one in flight queues and waits. When a
// round trip ends, its sender hands the queue, as one batch, to the first
// caller in it, who sends it and in turn hands on what queued meanwhile.
type touchQueue struct {
	mu      sync.Mutex
	busy    bool // a round trip is in flight
	waiting []*touchCall
}

// touchCall is one lookup and, once done is closed, its answer.
type touchCall struct {
	id       string
	wantInit bool

	owner string
	init  []byte
	ok    bool
	err   error

	// wake receives the batch this caller is to send (it holds the caller
	// first), or nil once another sender has answered it.
	wake chan []*touchCall
}

// maxTouchBatch bounds one pipeline; the rest waits for the next round trip.
const maxTouchBatch = 64

// do answers c, sending it alone or with others queued meanwhile.
func (q *touchQueue) do(ctx context.Context, r *sharedSessions, c *touchCall) {
	q.mu.Lock()
	if q.busy {
		c.wake = make(chan []*touchCall, 1)
		q.waiting = append(q.waiting, c)
		q.mu.Unlock()
		// No select on ctx: a queued caller may be handed the next batch, which
		// others wait on; every round trip is bounded by sessionOpTimeout.
		batch := <-c.wake
		if batch == nil {
			return // answered by another sender
		}
		q.send(ctx, r, batch)
		return
	}
	q.busy = true
	q.mu.Unlock()
	q.send(ctx, r, []*touchCall{c})
}

// send runs batch (batch[0] is the caller), answers the others, then hands
// on the queue.
func (q *touchQueue) send(ctx context.Context, r *sharedSessions, batch []*touchCall) {
	if len(batch) == 1 {
		// The caller's own lookup, bounded by its request's context.
		ctx, cancel := context.WithTimeout(ctx, sessionOpTimeout)
		keys, args := r.touchArgs(batch[0])
		v, err := touchScript.Run(ctx, r.rdb, keys, args...).StringSlice()
		cancel()
		batch[0].answer(v, err)
	} else {
		// Others' lookups too: not cut short by this request's client leaving.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sessionOpTimeout)
		r.touchPipelined(ctx, batch)
		cancel()
	}
	for _, c := range batch[1:] {
		c.wake <- nil
	}
	q.mu.Lock()
	next := q.waiting
	if len(next) > maxTouchBatch {
		next, q.waiting = next[:maxTouchBatch:maxTouchBatch], next[maxTouchBatch:]
	} else {
		q.waiting = nil
	}
	if len(next) == 0 {
		q.busy = false
	}
	q.mu.Unlock()
	if len(next) > 0 {
		next[0].wake <- next // buffered: never blocks
	}
}

// touchPipelined sends every lookup of batch in one pipeline. A Redis that
// lost the script (restart, SCRIPT FLUSH) answers NOSCRIPT: those lookups are
// sent again through Script.Run, which loads it.
func (r *sharedSessions) touchPipelined(ctx context.Context, batch []*touchCall) {
	pipe := r.rdb.Pipeline()
	cmds := make([]*redis.Cmd, len(batch))
	for i, c := range batch {
		keys, args := r.touchArgs(c)
		cmds[i] = touchScript.EvalSha(ctx, pipe, keys, args...)
	}
	_, _ = pipe.Exec(ctx) // each command carries its own error
	for i, c := range batch {
		v, err := cmds[i].StringSlice()
		if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			keys, args := r.touchArgs(c)
			v, err = touchScript.Run(ctx, r.rdb, keys, args...).StringSlice()
		}
		c.answer(v, err)
	}
}
