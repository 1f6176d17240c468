package sessions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisStore keeps session ids in Redis (MCPFLEET_REDIS_URL), so every
// replica behind a load balancer accepts a live session and answers 404 for an
// ended one. Per session one hash (owner, initialize params, expiry time),
// expiring after the idle TTL, which a use refreshes once a tenth of it has
// passed since the last refresh (touchScript); per user and in total a sorted
// set of session keys scored by expiry time, so expired sessions leave the
// counts without a sweeper. Each operation is one Lua script, one round trip:
// the cap check and the insert are atomic across replicas. Keys hold the
// SHA-256 of the id, never the id (it works as a credential).
//
// The scripts build the per-user key from the owner they read, so they need
// a single Redis (or a primary with replicas), not Redis Cluster.
type redisStore struct {
	rdb        *redis.Client
	ttl        time.Duration
	max        int
	maxPerUser int
}

// NewRedis is the Store replicas share: at most max sessions, maxPerUser per
// user, each expiring ttl after its last use.
func NewRedis(rdb *redis.Client, ttl time.Duration, max, maxPerUser int) Store {
	return &redisStore{rdb: rdb, ttl: ttl, max: max, maxPerUser: maxPerUser}
}

const (
	keyPrefix = "mcpfleet:session:"
	allKey    = keyPrefix + "all"
	userKey   = keyPrefix + "user:"
)

func hashKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return keyPrefix + "id:" + hex.EncodeToString(sum[:])
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

// touchScript validates a session and keeps it alive: it returns {owner,
// init params}, or nil for an unknown (expired, ended) id. The idle TTL is
// refreshed when a tenth of it has passed since the last refresh ('exp' in
// the hash; a hash without one is refreshed), so a session in use expires no
// sooner than 9/10 of the TTL after its last use, and the common request only
// reads. KEYS: session hash, all set. ARGV: ttl ms, user set prefix.
var touchScript = redis.NewScript(luaNow + `
local v = redis.call('HMGET', KEYS[1], 'owner', 'init', 'exp')
if not v[1] then return false end
local init = v[2] or ''
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

// opTimeout bounds each operation: a stalled Redis must not hold a request.
const opTimeout = 2 * time.Second

// Reserve mints an id and records it for user in one step, within the caps.
func (r *redisStore) Reserve(ctx context.Context, user string, init []byte) (string, error) {
	id := newID()
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	res, err := reserveScript.Run(ctx, r.rdb,
		[]string{hashKey(id), allKey, userKey + user},
		user, init, r.ttl.Milliseconds(), r.max, r.maxPerUser).Int()
	if err != nil {
		return "", fmt.Errorf("session reserve: %w", err)
	}
	switch res {
	case 1:
		return "", tooManyForUser(r.maxPerUser)
	case 2:
		return "", tooManyInTotal(r.max)
	}
	return id, nil
}

func (r *redisStore) Lookup(ctx context.Context, id string) (owner string, init []byte, ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	v, err := touchScript.Run(ctx, r.rdb, []string{hashKey(id), allKey}, r.ttl.Milliseconds(), userKey).StringSlice()
	switch {
	case errors.Is(err, redis.Nil):
		return "", nil, false, nil
	case err != nil || len(v) != 2:
		return "", nil, false, fmt.Errorf("session lookup: %w", err)
	}
	return v[0], []byte(v[1]), true, nil
}

// End ends id for every replica.
func (r *redisStore) End(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	if err := terminateScript.Run(ctx, r.rdb, []string{hashKey(id), allKey}, userKey).Err(); err != nil {
		return fmt.Errorf("session terminate: %w", err)
	}
	return nil
}
