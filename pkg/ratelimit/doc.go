// Package ratelimit decides whether a call keyed by a string (a user, a
// token hash, a query key) may proceed now, and if not, when it may.
//
// # Algorithms
//
// NewSlidingWindow(limit, window) is an exact sliding log: it admits at most
// limit calls in ANY interval of length window. It keeps the admission times
// of the last limit calls per key, so its memory is O(limit) per key. An entry
// admitted at t stops counting at exactly t+window, so a call at t+window is
// admitted again. When a call is denied, RetryAfter is the time until the
// oldest entry that must leave the log does so (oldest + window − now). Use it
// when a policy says "20 per 10 minutes" literally.
//
// NewTokenBucket(rate, per, burst) is GCRA (the generic cell rate algorithm,
// a token bucket kept as one timestamp): a sustained rate of rate calls per
// per, with up to burst calls back to back. With burst == rate it is NOT an
// "N per window" limit: a bucket of 20 per 10 minutes admits 20 at once and
// then one every 30 s, i.e. 39 calls in the first rolling 10 minutes. Use it
// for upstream limits like "20 requests per second".
//
// All(limiters...) admits a call only if every limiter admits it, and a call
// denied by one limiter consumes nothing from the others (e.g. Shoonya's
// 20/s AND 200/min). Wait blocks until a limiter admits a call, for client
// side throttling of fan-outs.
//
// NewWindowClaims(W) is not a rate: it grants "at most once per W-aligned
// window per key" (windows are floor(unix time / W), so a 3 h window starts at
// 00:00, 03:00, ... UTC). The caller that wins a claim does the work; others
// get Granted=false and the time until the next window. After the work, the
// holder either keeps the claim (do nothing: the upstream answered, or said
// 429/503 and must not be asked again in this window) or calls Release to give
// it back when the failure should allow a retry in the same window (e.g. a
// local timeout before the request was sent).
//
// # Backends
//
// By default state lives in process memory: a sharded map whose idle keys
// are swept lazily, safe for concurrent use and exact under concurrency.
// WithRedis(client, prefix) keeps state in Redis so that replicas share one
// limit. Each decision is one atomic Lua script (EVALSHA, falling back to
// EVAL), keys are prefix + "{" + key + "}" (a Redis Cluster hash tag, so the
// keys of one caller in All share a slot; the prefix must not contain '{'),
// and every key carries a PEXPIRE so idle keys vanish.
//
// Time in Redis scripts comes from the server's TIME, so replicas with skewed
// clocks still agree. WithClock replaces the clock for tests: a memory backend
// reads it directly, and a Redis backend then sends the client's clock to the
// script instead of using TIME. That makes window edges testable, at the cost
// that key expiry (PEXPIRE) still runs on server time; never combine
// WithClock with Redis in production.
//
// # Failure
//
// A Redis error is returned to the caller with a zero Decision (Allowed ==
// false): the limiter fails closed and the caller decides whether to deny,
// or to fall back to a per-process limiter with a warning. Constructors panic
// on impossible settings (limit, window, rate, burst ≤ 0), which are
// programming errors.
//
// # Counting
//
// A call counts when it is admitted, whether or not the upstream call that
// follows succeeds. This is the simplest rule that keeps an upstream safe.
package ratelimit
