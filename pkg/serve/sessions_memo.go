package serve

import (
	"context"
	"crypto/rand"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// sessionMemo lets a replica answer a session lookup from memory and still
// keep the rule that a DELETE answered on any replica is a 404 on every
// replica for the very next request (issue 18). Asking Redis on every request
// was over a third of a cached HTTP call's cost above the floor (issue 20:
// shoonya search_scrip at C=16, 1.5× the floor's CPU and 0.65× its throughput;
// with lookups from memory 1.2× and 0.9×).
//
// The protocol, all through the Redis that holds the sessions:
//   - A replica that memoises is a holder: it subscribes to the ended channel,
//     then registers a random holder id in a sorted set scored by a lease
//     expiry on Redis' clock, renewed every leaseRenew. It answers from memory
//     only while subscribed and before its own deadline, which is the lease
//     less a margin measured from before the renewal was sent, so it stops
//     before Redis counts its lease as ended.
//   - A terminating replica deletes the session, then in one script publishes
//     the session's key (its SHA-256, never the id) and reads the live holders.
//     It answers the DELETE only once each holder has acknowledged the message
//     (evicted, then added its id to the message's ack set) or its lease has
//     ended. A holder that has not acknowledged within ackGrace is fenced: it
//     cannot renew, so its lease ends within leaseTTL.
//   - Anything that may have lost a message (a subscription error or silence,
//     a refused renewal) ends the holder's epoch: memoised entries of an older
//     epoch are never served, and the holder registers a new id.
//   - A lookup read from Redis is memoised only if no ended message and no
//     epoch change came between its start and its answer (gen), so an answer
//     read before a delete is never kept after the delete's message.
//
// Entries are kept for fresh, after which Redis is asked again, which also
// refreshes the idle TTL: a session in use on one replica expires no sooner
// than 0.85 of the TTL after its last use (touchScript refreshes once a tenth
// has passed; an entry adds at most a twentieth).
type sessionMemo struct {
	rdb   *redis.Client
	log   zerolog.Logger
	fresh time.Duration

	// Redis names, scoped to the client's database: pub/sub is not.
	channel, holdersKey, fencedKey string

	start sync.Once
	kick  chan struct{} // wakes the renewer: subscribed, or lease refused

	mu         sync.RWMutex
	subscribed bool
	rid        string    // registered holder id; "" while not registered
	oldRid     string    // the previous id, removed when the next registers
	deadline   time.Time // answers from memory only before this
	epoch      uint64
	gen        uint64 // bumped by every ended message and epoch change
	entries    map[string]memoEntry
	byKey      map[string]string // session hash key → id
	left       bool              // leave was called: never registers again

	beforeEvict func() // tests: stalls the handling of ended messages
}

type memoEntry struct {
	owner string
	epoch uint64
	until time.Time
}

// Lease timing. The margin (a third of the lease) absorbs the time between a
// renewal's send, which starts the local deadline, and Redis running it, and
// any difference in the clocks' rates.
const (
	leaseTTL    = 3 * time.Second
	leaseMargin = time.Second
	leaseRenew  = 500 * time.Millisecond
	ackGrace    = 500 * time.Millisecond
	// endedWait bounds a DELETE's wait: the grace, then at most a lease.
	endedWait = ackGrace + leaseTTL + time.Second
)

func newSessionMemo(rdb *redis.Client, ttl time.Duration, log zerolog.Logger) *sessionMemo {
	db := strconv.Itoa(rdb.Options().DB)
	return &sessionMemo{
		rdb: rdb, log: log, fresh: ttl / 20,
		channel:    sessionKeyPrefix + "ended:db" + db,
		holdersKey: sessionKeyPrefix + "holders",
		fencedKey:  sessionKeyPrefix + "fenced",
		kick:       make(chan struct{}, 1),
		entries:    map[string]memoEntry{},
		byKey:      map[string]string{},
	}
}

// get answers id from memory, when that is still allowed.
func (m *sessionMemo) get(id string) (owner string, ok bool) {
	now := time.Now()
	m.mu.RLock()
	e, hit := m.entries[id]
	ok = hit && e.epoch == m.epoch && now.Before(e.until) && m.servingLocked(now)
	m.mu.RUnlock()
	return e.owner, ok
}

func (m *sessionMemo) servingLocked(now time.Time) bool {
	return m.subscribed && m.rid != "" && now.Before(m.deadline)
}

// memoTicket is taken before a lookup reads Redis.
type memoTicket struct {
	gen uint64
	at  time.Time
}

func (m *sessionMemo) ticket() memoTicket {
	m.start.Do(func() { go m.run() })
	m.mu.RLock()
	defer m.mu.RUnlock()
	return memoTicket{gen: m.gen, at: time.Now()}
}

// put keeps a live id read from Redis after t was taken, unless something
// ended meanwhile.
func (m *sessionMemo) put(t memoTicket, id, owner string) {
	key := sessionHashKey(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.gen != m.gen || !m.servingLocked(time.Now()) {
		return
	}
	if len(m.entries) >= maxMemoEntries {
		clear(m.entries)
		clear(m.byKey)
	}
	m.entries[id] = memoEntry{owner: owner, epoch: m.epoch, until: t.at.Add(m.fresh)}
	m.byKey[key] = id
}

// maxMemoEntries bounds memory; past it the memo starts over.
const maxMemoEntries = 1 << 16

// forget drops id and makes lookups already reading Redis not keep their
// answer. Called after the session's hash is deleted.
func (m *sessionMemo) forget(id string) { m.forgetKey(sessionHashKey(id)) }

func (m *sessionMemo) forgetKey(key string) {
	m.mu.Lock()
	if id, ok := m.byKey[key]; ok {
		delete(m.byKey, key)
		delete(m.entries, id)
	}
	m.gen++
	m.mu.Unlock()
}

// endEpoch: a message may have been missed; nothing memoised so far is served.
func (m *sessionMemo) endEpoch(unsubscribed, unregistered bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if unsubscribed {
		m.subscribed = false
	}
	if unregistered && m.rid != "" {
		m.oldRid, m.rid = m.rid, ""
	}
	m.epoch++
	m.gen++
	clear(m.entries)
	clear(m.byKey)
}

func (m *sessionMemo) wake() {
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// run receives ended messages for as long as the Redis client is open.
func (m *sessionMemo) run() {
	ctx := context.Background()
	ps := m.rdb.Subscribe(ctx, m.channel)
	defer func() { _ = ps.Close() }()
	go m.renew(ps)
	for {
		// The renewer pings every leaseRenew: silence means a dead connection.
		msg, err := ps.ReceiveTimeout(ctx, leaseTTL-leaseMargin)
		if err != nil {
			if err == redis.ErrClosed {
				return
			}
			m.endEpoch(true, true)
			if m.closed() {
				return
			}
			time.Sleep(50 * time.Millisecond) // go-redis reconnects and resubscribes on the next receive
			continue
		}
		// Anything received means the connection is subscribed: after a
		// reconnect go-redis resubscribes before anything else is read, and
		// after a mere timeout the connection was kept, nothing lost.
		m.mu.Lock()
		was := m.subscribed
		m.subscribed = true
		m.mu.Unlock()
		if !was {
			m.wake()
		}
		if v, ok := msg.(*redis.Message); ok {
			m.ended(ctx, v.Payload)
		}
	}
}

func (m *sessionMemo) closed() bool {
	return m.rdb.Ping(context.Background()).Err() == redis.ErrClosed
}

// memoAckKey is the set of holders that evicted the session an ended
// message named: the holders add to it, the terminating replica reads it.
func memoAckKey(msgID string) string { return sessionKeyPrefix + "ack:" + msgID }

// ended evicts the key a message names, then acknowledges it.
func (m *sessionMemo) ended(ctx context.Context, payload string) {
	key, msgID, ok := strings.Cut(payload, " ")
	if !ok {
		return
	}
	if m.beforeEvict != nil {
		m.beforeEvict()
	}
	m.forgetKey(key)
	m.mu.RLock()
	rid := m.rid
	m.mu.RUnlock()
	if rid == "" {
		return // not registered: nobody waits for this replica
	}
	ctx, cancel := context.WithTimeout(ctx, sessionOpTimeout)
	defer cancel()
	ack := memoAckKey(msgID)
	pipe := m.rdb.Pipeline()
	pipe.SAdd(ctx, ack, rid)
	pipe.PExpire(ctx, ack, endedWait+time.Second)
	if _, err := pipe.Exec(ctx); err != nil {
		m.log.Warn().Err(err).Msg("could not acknowledge an ended session; the terminating replica fences this one")
	}
}

// renewScript registers or renews a holder's lease. KEYS: holders, fenced.
// ARGV: holder id, lease ms, 'new' or 'renew', the id it replaces (or empty).
// Returns 1, or 0 when a renewal is refused (fenced, or the lease already
// ended in Redis' eyes: a terminator may have stopped waiting for it).
var renewScript = redis.NewScript(luaNow + `
local lease = tonumber(ARGV[2])
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
if ARGV[3] == 'renew' then
  local exp = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if not exp or tonumber(exp) <= now then return 0 end
end
if ARGV[4] ~= '' then redis.call('ZREM', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lease * 2)
return 1
`)

// renew keeps the lease, registering a new holder id whenever the last one
// ended, and pings the subscription so a dead one is noticed.
func (m *sessionMemo) renew(ps *redis.PubSub) {
	ctx := context.Background()
	t := time.NewTicker(leaseRenew)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-m.kick:
		}
		m.mu.RLock()
		subscribed, rid, old, epoch, left := m.subscribed, m.rid, m.oldRid, m.epoch, m.left
		m.mu.RUnlock()
		if subscribed && !left {
			mode := "renew"
			if rid == "" {
				mode, rid = "new", rand.Text()
			}
			sent := time.Now()
			cctx, cancel := context.WithTimeout(ctx, sessionOpTimeout)
			res, err := renewScript.Run(cctx, m.rdb, []string{m.holdersKey, m.fencedKey}, rid, leaseTTL.Milliseconds(), mode, old).Int()
			cancel()
			switch {
			case err == redis.ErrClosed:
				return
			case err != nil:
				// Redis is not answering: the deadline runs out by itself.
			case res == 0:
				m.endEpoch(false, true)
				m.wake()
			default:
				orphan := ""
				m.mu.Lock()
				if mode == "new" && (m.epoch != epoch || !m.subscribed || m.left) {
					m.oldRid = rid // registered too late for this epoch: removed by the next registration
					if m.left {
						orphan, m.oldRid = rid, "" // there is no next one
					}
				} else if m.epoch == epoch && m.subscribed {
					if mode == "new" {
						// A fresh epoch: nothing read before the registration counts.
						m.rid, m.oldRid = rid, ""
						m.epoch++
						m.gen++
					}
					if m.rid == rid {
						m.deadline = sent.Add(leaseTTL - leaseMargin)
					}
				}
				m.mu.Unlock()
				if orphan != "" {
					_ = m.rdb.ZRem(ctx, m.holdersKey, orphan).Err() // else its lease ends in leaseTTL
				}
			}
		}
		if err := ps.Ping(ctx); err == redis.ErrClosed {
			return
		}
	}
}

// leave stops answering from memory and deregisters this replica's holder
// id (a rolling update: without it every DELETE in the next few seconds would
// wait out the lease of a replica that is gone).
func (m *sessionMemo) leave() {
	m.endEpoch(false, true)
	m.mu.Lock()
	old := m.oldRid
	m.oldRid = ""
	m.left = true
	m.mu.Unlock()
	if old == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionOpTimeout)
	defer cancel()
	if err := m.rdb.ZRem(ctx, m.holdersKey, old).Err(); err != nil {
		m.log.Warn().Err(err).Msg("could not leave the session memo; other replicas' DELETEs wait for this one's lease to end")
	}
}

// endedScript publishes an ended session's key and returns the live
// holders. KEYS: holders. ARGV: channel, payload.
var endedScript = redis.NewScript(luaNow + `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PUBLISH', ARGV[1], ARGV[2])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`)

// pendingScript counts the holders (ARGV[3..]) that neither acknowledged nor
// saw their lease end; with ARGV[1] '1' it fences them. KEYS: holders, ack
// set, fenced. ARGV: fence, fenced set's TTL ms, holder ids.
var pendingScript = redis.NewScript(luaNow + `
local left = 0
for i = 3, #ARGV do
  local rid = ARGV[i]
  if redis.call('SISMEMBER', KEYS[2], rid) == 0 then
    local exp = redis.call('ZSCORE', KEYS[1], rid)
    if exp and tonumber(exp) > now then
      left = left + 1
      if ARGV[1] == '1' then
        redis.call('SADD', KEYS[3], rid)
        redis.call('PEXPIRE', KEYS[3], ARGV[2])
      end
    end
  end
end
return left
`)

// broadcastEnded tells every holder that id's session ended and returns once
// none can answer it from memory. The hash is already deleted.
func (m *sessionMemo) broadcastEnded(ctx context.Context, id string) error {
	key := sessionHashKey(id)
	m.forgetKey(key)
	msgID := rand.Text()
	ctx, cancel := context.WithTimeout(ctx, endedWait)
	defer cancel()
	holders, err := endedScript.Run(ctx, m.rdb, []string{m.holdersKey}, m.channel, key+" "+msgID).StringSlice()
	if err != nil {
		return err
	}
	m.mu.RLock()
	self := m.rid
	m.mu.RUnlock()
	args := []any{"0", (2 * leaseTTL).Milliseconds()}
	for _, h := range holders {
		if h != self { // this replica forgot it above
			args = append(args, h)
		}
	}
	if len(args) == 2 {
		return nil
	}
	keys := []string{m.holdersKey, memoAckKey(msgID), m.fencedKey}
	fenceAt := time.Now().Add(ackGrace)
	for pause := 500 * time.Microsecond; ; pause = min(2*pause, 20*time.Millisecond) {
		if time.Now().After(fenceAt) {
			args[0] = "1"
		}
		left, err := pendingScript.Run(ctx, m.rdb, keys, args...).Int()
		if err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
}
