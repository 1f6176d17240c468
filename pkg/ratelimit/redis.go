package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// admitLua decides one call against one or more limits atomically: the
// call is admitted, and counted in every limit, only if every limit admits
// it; otherwise nothing is written (except dropping expired log entries).
//
//	KEYS[i]        state key of limit i
//	ARGV[1]        now in µs, or 0 to use the server's TIME
//	ARGV[2]        a unique id for this call (sliding-log member)
//	ARGV[3i..3i+2] kind, a, b of limit i:
//	               kind 1 = sliding log, a = limit, b = window µs
//	               kind 2 = GCRA,        a = interval µs, b = burst
//
// Returns {admitted, remaining_1, retry_µs_1, ..., remaining_n, retry_µs_n}.
// Numbers are written with %.0f: Redis would format a Lua number with %.14g
// and lose the low digits of a µs timestamp.
const admitLua = `
if redis.replicate_commands then redis.replicate_commands() end
local function num(x) return string.format('%.0f', x) end
local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local out, tats = {1}, {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local kind, a, b = tonumber(ARGV[3*i]), tonumber(ARGV[3*i+1]), tonumber(ARGV[3*i+2])
  local rem, retry = 0, 0
  if kind == 1 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', num(now - b))
    local n = redis.call('ZCARD', key)
    if n < a then
      rem = a - n - 1
    else
      local e = redis.call('ZRANGE', key, n - a, n - a, 'WITHSCORES')
      retry = tonumber(e[2]) + b - now
    end
  else
    local tat = tonumber(redis.call('GET', key) or now)
    if tat < now then tat = now end
    local allow_at = tat + a - a * b
    if now < allow_at then
      retry = allow_at - now
    else
      rem = math.floor((now - allow_at) / a)
      tats[i] = tat + a
    end
  end
  if retry > 0 then out[1] = 0 end
  out[2*i], out[2*i+1] = rem, retry
end
if out[1] == 1 then
  for i = 1, #KEYS do
    local key, kind, b = KEYS[i], tonumber(ARGV[3*i]), tonumber(ARGV[3*i+2])
    if kind == 1 then
      redis.call('ZADD', key, num(now), num(now) .. '-' .. ARGV[2])
      redis.call('PEXPIRE', key, num(math.ceil(b / 1000)))
    else
      redis.call('SET', key, num(tats[i]), 'PX', num(math.ceil((tats[i] - now) / 1000)))
    end
  end
end
return out
`

var admitScript = redis.NewScript(admitLua)

// redisKey places key inside a hash tag so that all limits of one caller
// land in the same Redis Cluster slot.
func redisKey(prefix, key string) string { return prefix + "{" + key + "}" }

// callIDs makes sliding-log members unique across processes.
var (
	callPrefix = randomHex(8)
	callSeq    atomic.Uint64
)

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails on supported platforms
	return hex.EncodeToString(b)
}

// redisNow is the "now" argument of a script: 0 (server TIME) unless a
// clock was injected.
func redisNow(o options) int64 {
	if o.clientClock {
		return o.clock.Now().UnixMicro()
	}
	return 0
}

// allowRedis runs admitLua for key over parts, which share o.rdb. It returns
// the verdict of every part so All can merge them with memory verdicts.
func allowRedisVerdicts(ctx context.Context, o options, parts []*limiter, key string) ([]verdict, error) {
	keys := make([]string, len(parts))
	args := make([]any, 2, 2+3*len(parts))
	args[0] = redisNow(o)
	args[1] = callPrefix + strconv.FormatUint(callSeq.Add(1), 36)
	for i, p := range parts {
		keys[i] = redisKey(p.o.prefix, key)
		kind, a, b := p.pol.lua()
		args = append(args, kind, a, b)
	}
	res, err := admitScript.Run(ctx, o.rdb, keys, args...).Int64Slice()
	if err != nil {
		return nil, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 1+2*len(parts) {
		return nil, fmt.Errorf("ratelimit: redis: script returned %d values, want %d", len(res), 1+2*len(parts))
	}
	vs := make([]verdict, len(parts))
	for i := range parts {
		rem, retry := res[1+2*i], res[2+2*i]
		vs[i] = verdict{allowed: retry <= 0, remaining: int(rem), retry: microseconds(retry)}
	}
	return vs, nil
}

func microseconds(us int64) time.Duration { return time.Duration(us) * time.Microsecond }
