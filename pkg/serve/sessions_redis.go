package serve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

// sharedSessions keeps legacy session ids in Redis (MCPFLEET_REDIS_URL), so
// every replica behind a load balancer accepts a live session and answers 404
// for a terminated one. Per session one hash (owner, initialize params, expiry
// time), expiring after the idle TTL, which a use refreshes once a tenth of it
// has passed since the last refresh (touchScript); per user and in total a
// sorted set of session keys scored by expiry time, so expired sessions leave
// the counts without a sweeper. Each operation is one Lua script: the cap
// check and the insert are atomic across replicas. Keys hold the SHA-256 of
// the id, never the id (it works as a credential).
//
// A replica answers lookups of the sessions it holds from memory (sessionMemo),
// which a DELETE on any replica clears on every replica before it is
// answered; other lookups ask Redis, concurrent ones sharing one pipelined
// round trip (touchQueue).
//
// The scripts build the per-user key from the owner they read, so they need
// a single Redis (or a primary with replicas), not Redis Cluster.
type sharedSessions struct {
	rdb        *redis.Client
	ttl        time.Duration
	max        int
	maxPerUser int
	touches    touchQueue
	memo       *sessionMemo
}

const sessionKeyPrefix = "mcpfleet:session:"

var (
	sessionsAllKey  = sessionKeyPrefix + "all"
	sessionsUserKey = sessionKeyPrefix + "user:"
)

func sessionHashKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return sessionKeyPrefix + "id:" + hex.EncodeToString(sum[:])
}

// Redis' own clock (TIME) scores expiry, so replicas' clocks need not agree.
const luaNow = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// KEYS: session hash, all set, user set. ARGV: owner, init params, ttl ms, max, max per user.
var reserveScript = redis.NewScript(luaNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
local exp = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'init', ARGV[2], 'exp', exp)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], exp, KEYS[1])
redis.call('ZADD', KEYS[3], exp, KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 0
`)

// touch validates a session and keeps it alive: it returns {owner, init
// params} (init only when ARGV[3] is '1': a replica that holds the session
// needs only the owner), or nil for an unknown (expired, terminated) id. The
// idle TTL is refreshed when a tenth of it has passed since the last refresh
// ('exp' in the hash; a hash without one is refreshed), so a session in use
// expires no sooner than 9/10 of the TTL after its last use (0.85 through a
// replica's memo, which asks again every twentieth), and the common
// request only reads. KEYS: session hash, all set. ARGV: ttl ms, user set
// prefix, want init.
var touchScript = redis.NewScript(luaNow + `
local v = redis.call('HMGET', KEYS[1], 'owner', 'init', 'exp')
if not v[1] then return false end
local init = ''
if ARGV[3] == '1' then init = v[2] or '' end
local ttl = tonumber(ARGV[1])
if (tonumber(v[3]) or 0) - now > ttl - math.floor(ttl / 10) then return {v[1], init} end
local exp = now + ttl
local uk = ARGV[2] .. v[1]
redis.call('HSET', KEYS[1], 'exp', exp)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], exp, KEYS[1])
redis.call('ZADD', uk, exp, KEYS[1])
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', uk, ttl)
return {v[1], init}
`)

// KEYS: session hash, all set. ARGV: user set prefix.
var terminateScript = redis.NewScript(`
local o = redis.call('HGET', KEYS[1], 'owner')
if not o then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
redis.call('ZREM', ARGV[1] .. o, KEYS[1])
return 1
`)

// opTimeout bounds each session operation; connectRedis already makes
// go-redis fail fast, this keeps a stalled Redis from holding a request.
const sessionOpTimeout = 2 * time.Second

// errSessionStore is what a client sees when Redis does not answer: the
// address and the cause go to the log, not to the client.
var errSessionStore = &errTooManySessions{http.StatusServiceUnavailable,
	"the session store (Redis) is not answering; retry shortly, or use protocol 2026-07-28 (no sessions)"}

// reserve mints an id and records it for user in one step, within the caps.
func (r *sharedSessions) reserve(ctx context.Context, user string, init []byte) (string, error) {
	id := sessionPrefix + rand.Text()
	ctx, cancel := context.WithTimeout(ctx, sessionOpTimeout)
	defer cancel()
	res, err := reserveScript.Run(ctx, r.rdb,
		[]string{sessionHashKey(id), sessionsAllKey, sessionsUserKey + user},
		user, init, r.ttl.Milliseconds(), r.max, r.maxPerUser).Int()
	if err != nil {
		return "", fmt.Errorf("session reserve: %w", err)
	}
	switch res {
	case 1:
		return "", &errTooManySessions{http.StatusTooManyRequests, fmt.Sprintf(
			"too many open sessions for this user (at most %d): end unused ones with DELETE, or wait for idle ones to expire", r.maxPerUser)}
	case 2:
		return "", &errTooManySessions{http.StatusServiceUnavailable, fmt.Sprintf(
			"the server holds its maximum of %d sessions; retry later, or use protocol 2026-07-28 (no sessions)", r.max)}
	}
	return id, nil
}

// touch returns the owner of a live id and, when wantInit, its stored
// initialize params, refreshing its idle TTL when due; ok is false for an
// unknown one. Concurrent touches share a round trip (touchQueue.do).
func (r *sharedSessions) touch(ctx context.Context, id string, wantInit bool) (owner string, init []byte, ok bool, err error) {
	c := &touchCall{id: id, wantInit: wantInit}
	r.touches.do(ctx, r, c)
	return c.owner, c.init, c.ok, c.err
}

// touchArgs are touchScript's keys and arguments for c.
func (r *sharedSessions) touchArgs(c *touchCall) ([]string, []any) {
	want := "0"
	if c.wantInit {
		want = "1"
	}
	return []string{sessionHashKey(c.id), sessionsAllKey}, []any{r.ttl.Milliseconds(), sessionsUserKey, want}
}

// answer reads touchScript's reply into c.
func (c *touchCall) answer(v []string, err error) {
	switch {
	case errors.Is(err, redis.Nil):
		c.owner, c.init, c.ok, c.err = "", nil, false, nil
	case err != nil || len(v) != 2:
		c.err = fmt.Errorf("session lookup: %w", err)
	default:
		c.owner, c.ok = v[0], true
		if c.wantInit {
			c.init = []byte(v[1]) // never nil: nil means "not asked for" (adopt)
		}
	}
}

// terminate ends id for every replica.
func (r *sharedSessions) terminate(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, sessionOpTimeout)
	defer cancel()
	if err := terminateScript.Run(ctx, r.rdb, []string{sessionHashKey(id), sessionsAllKey}, sessionsUserKey).Err(); err != nil {
		return fmt.Errorf("session terminate: %w", err)
	}
	return nil
}
