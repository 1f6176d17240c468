package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Claim is the answer to Claims.Claim.
type Claim struct {
	// Granted reports whether this caller now holds key's claim for Window.
	Granted bool
	// Key is the claimed key.
	Key string
	// Window is the index of the current window: floor(unix time / W).
	Window int64
	// Next is when the next window starts, (Window+1)·W: the earliest
	// moment a claim can be granted again if this one is kept. A caller that
	// got a 429/503 upstream can report it as "deferred until".
	Next time.Time
	// RetryAfter is the time until Next when not Granted; 0 when Granted.
	RetryAfter time.Duration

	token string // proves ownership to Release
}

// Claims grants at most one claim per key per W-aligned window.
//
// After a granted claim the holder does the work and then either
//   - keeps the claim: does nothing. Right after a success, and after an
//     upstream 429/503, which must not be retried in the same window;
//   - releases it with Release, when the attempt failed in a way that should
//     allow another attempt in the same window (e.g. a local error before
//     the request reached the upstream).
type Claims interface {
	Claim(ctx context.Context, key string) (Claim, error)
	// Release gives a granted claim back so that the key can be claimed
	// again in the same window. Releasing a claim that was not granted, has
	// already been released, or belongs to a past window does nothing; it
	// never removes somebody else's claim.
	Release(ctx context.Context, c Claim) error
}

// NewWindowClaims returns Claims for windows of length window aligned on the
// Unix epoch (a 3 h window starts at 00:00, 03:00, ... UTC). It accepts
// WithClock and WithRedis (Redis: one key per claimed key, holding
// "window:token" with a PEXPIRE past the window's end; SET NX semantics in
// one script, with the window taken from the server's TIME).
func NewWindowClaims(window time.Duration, opts ...Option) Claims {
	if window < time.Millisecond {
		panic(fmt.Sprintf("ratelimit: NewWindowClaims(%v): window must be ≥ 1ms", window))
	}
	o := buildOptions(opts)
	if o.rdb != nil {
		return &redisClaims{window: window, o: o}
	}
	if o.db != nil {
		return &storeClaims{window: window, o: o}
	}
	return &memClaims{window: window, clock: o.clock, held: map[string]memClaim{}}
}

func claimToken() string { return randomHex(8) }

// WindowOf returns the index of the window holding t (windows of length
// window aligned on the Unix epoch, as NewWindowClaims uses) and the start of
// the next window.
func WindowOf(t time.Time, window time.Duration) (int64, time.Time) {
	ns, w := t.UnixNano(), int64(window)
	idx := ns / w
	if ns%w < 0 {
		idx--
	}
	return idx, time.Unix(0, (idx+1)*w)
}

type memClaims struct {
	window    time.Duration
	clock     Clock
	mu        sync.Mutex
	held      map[string]memClaim
	nextSweep int64 // window index at which past claims are swept
}

type memClaim struct {
	window int64
	token  string
}

func (m *memClaims) Claim(_ context.Context, key string) (Claim, error) {
	now := m.clock.Now()
	w, next := WindowOf(now, m.window)
	m.mu.Lock()
	defer m.mu.Unlock()
	if w >= m.nextSweep { // lazy sweep: claims of past windows are dead
		for k, c := range m.held {
			if c.window < w {
				delete(m.held, k)
			}
		}
		m.nextSweep = w + 1
	}
	c := Claim{Key: key, Window: w, Next: next}
	if cur, ok := m.held[key]; ok && cur.window >= w {
		c.RetryAfter = next.Sub(now)
		return c, nil
	}
	c.Granted, c.token = true, claimToken()
	m.held[key] = memClaim{window: w, token: c.token}
	return c, nil
}

func (m *memClaims) Release(_ context.Context, c Claim) error {
	if !c.Granted {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur, ok := m.held[c.Key]; ok && cur.window == c.Window && cur.token == c.token {
		delete(m.held, c.Key)
	}
	return nil
}

// claimLua grants key's claim for the current window unless it is held.
//
//	KEYS[1] claim key, value "window:token"
//	ARGV[1] now µs, or 0 for the server's TIME
//	ARGV[2] window µs
//	ARGV[3] token
//
// Returns {granted, window, now µs}. The key expires one window after the
// current window ends (slack for clock skew when a client clock is used).
const claimLua = `
if redis.replicate_commands then redis.replicate_commands() end
local function num(x) return string.format('%.0f', x) end
local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local win = tonumber(ARGV[2])
local w = math.floor(now / win)
local cur = redis.call('GET', KEYS[1])
if cur then
  local cw = tonumber(string.match(cur, '^(-?%d+):'))
  if cw and cw >= w then return {0, cw, now} end
end
local ttl = math.ceil(((w + 2) * win - now) / 1000)
redis.call('SET', KEYS[1], num(w) .. ':' .. ARGV[3], 'PX', num(ttl))
return {1, w, now}
`

// releaseLua deletes KEYS[1] only if it still holds ARGV[1] ("window:token").
const releaseLua = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`

var (
	claimScript   = redis.NewScript(claimLua)
	releaseScript = redis.NewScript(releaseLua)
)

type redisClaims struct {
	window time.Duration
	o      options
}

func (r *redisClaims) Claim(ctx context.Context, key string) (Claim, error) {
	token := claimToken()
	res, err := claimScript.Run(ctx, r.o.rdb, []string{redisKey(r.o.prefix, key)},
		redisNow(r.o), r.window.Microseconds(), token).Int64Slice()
	if err != nil {
		return Claim{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 3 {
		return Claim{}, fmt.Errorf("ratelimit: redis: claim script returned %d values, want 3", len(res))
	}
	w, now := res[1], time.UnixMicro(res[2])
	next := time.UnixMicro((w + 1) * r.window.Microseconds())
	c := Claim{Key: key, Window: w, Next: next}
	if res[0] == 1 {
		c.Granted, c.token = true, token
	} else {
		c.RetryAfter = next.Sub(now)
	}
	return c, nil
}

func (r *redisClaims) Release(ctx context.Context, c Claim) error {
	if !c.Granted {
		return nil
	}
	val := strconv.FormatInt(c.Window, 10) + ":" + c.token
	if err := releaseScript.Run(ctx, r.o.rdb, []string{redisKey(r.o.prefix, c.Key)}, val).Err(); err != nil {
		return fmt.Errorf("ratelimit: redis: %w", err)
	}
	return nil
}
