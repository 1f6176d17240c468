// Package poll is the scheduled path of google-news-rss: kept queryKeys, the
// cached feed per key, and the window claim that lets upstream be polled at
// most once per aligned 3-hour window per queryKey (the design's courtesy limit),
// in memory for one replica or in Redis for many.
package poll

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
)

// Spec is what a queryKey stands for.
type Spec struct {
	Q       string `json:"q"`
	Edition string `json:"edition"` // ceid, e.g. US:en
}

// ErrInfo is the last poll's failure, as shown to the caller.
type ErrInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// State is the cached feed of one queryKey.
type State struct {
	Items        []feed.Item `json:"items"`
	FetchedAt    time.Time   `json:"fetched_at"`    // last successful poll; zero if none
	PolledWindow int64       `json:"polled_window"` // window of the last poll attempt
	Deferred     bool        `json:"deferred"`      // that attempt failed; the claim was kept
	LastError    *ErrInfo    `json:"last_error,omitempty"`
	// Capped: the last poll's feed hit Google's 100-item cap (feed.Capped).
	Capped bool `json:"capped,omitempty"`
}

// Store keeps specs and states: memory (one replica) or Redis (shared).
type Store interface {
	PutSpec(ctx context.Context, key string, s Spec) error
	Spec(ctx context.Context, key string) (Spec, bool, error)
	PutState(ctx context.Context, key string, st State) error
	State(ctx context.Context, key string) (State, bool, error)
	// Holds: until when a host that throttled us is not asked again.
	feed.Holds
}

// MaxMemoryKeys bounds the memory store; past it an arbitrary key is
// forgotten (its caller gets not_found and builds it again).
const MaxMemoryKeys = 10000

// NewMemoryStore keeps everything in this process.
func NewMemoryStore() Store {
	return &memStore{specs: map[string]Spec{}, states: map[string]State{}, holds: map[string]time.Time{}}
}

type memStore struct {
	mu     sync.Mutex
	specs  map[string]Spec
	states map[string]State
	holds  map[string]time.Time // a key per upstream host: one or two
}

func (m *memStore) HoldUntil(_ context.Context, host string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.holds[host] = until
	return nil
}

func (m *memStore) HeldUntil(_ context.Context, host string) (time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.holds[host], nil
}

func (m *memStore) PutSpec(_ context.Context, key string, s Spec) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.specs[key]; !ok && len(m.specs) >= MaxMemoryKeys {
		for k := range m.specs {
			delete(m.specs, k)
			delete(m.states, k)
			break
		}
	}
	m.specs[key] = s
	return nil
}

func (m *memStore) Spec(_ context.Context, key string) (Spec, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.specs[key]
	return s, ok, nil
}

func (m *memStore) PutState(_ context.Context, key string, st State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.specs[key]; ok {
		m.states[key] = st
	}
	return nil
}

func (m *memStore) State(_ context.Context, key string) (State, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.states[key]
	return st, ok, nil
}

// Redis key prefixes and lifetimes. A spec lives 30 days after its last use; a
// cached feed 7 days after its last poll (a tracker polling less often than
// weekly starts from an empty cache).
const (
	RedisPrefix = "gnr:"
	specTTL     = 30 * 24 * time.Hour
	stateTTL    = 7 * 24 * time.Hour
)

// NewRedisStore keeps specs under gnr:key:{key} and feeds under
// gnr:feed:{key}, shared by every replica on the same Redis.
func NewRedisStore(rdb redis.Cmdable) Store { return &redisStore{rdb: rdb} }

type redisStore struct{ rdb redis.Cmdable }

func (r *redisStore) PutSpec(ctx context.Context, key string, s Spec) error {
	b, _ := json.Marshal(s)
	return redisErr(r.rdb.Set(ctx, RedisPrefix+"key:"+key, b, specTTL).Err())
}

func (r *redisStore) Spec(ctx context.Context, key string) (Spec, bool, error) {
	var s Spec
	ok, err := r.get(ctx, RedisPrefix+"key:"+key, specTTL, &s)
	return s, ok, err
}

func (r *redisStore) PutState(ctx context.Context, key string, st State) error {
	b, _ := json.Marshal(st)
	return redisErr(r.rdb.Set(ctx, RedisPrefix+"feed:"+key, b, stateTTL).Err())
}

func (r *redisStore) State(ctx context.Context, key string) (State, bool, error) {
	var st State
	ok, err := r.get(ctx, RedisPrefix+"feed:"+key, 0, &st)
	return st, ok, err
}

// HoldUntil keeps the hold under gnr:hold:{host} as Unix milliseconds,
// expiring a minute after it ends (the latest throttle's hold wins).
func (r *redisStore) HoldUntil(ctx context.Context, host string, until time.Time) error {
	ttl := max(time.Until(until), 0) + time.Minute
	return redisErr(r.rdb.Set(ctx, RedisPrefix+"hold:"+host, until.UnixMilli(), ttl).Err())
}

func (r *redisStore) HeldUntil(ctx context.Context, host string) (time.Time, error) {
	ms, err := r.rdb.Get(ctx, RedisPrefix+"hold:"+host).Int64()
	if errors.Is(err, redis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, redisErr(err)
	}
	return time.UnixMilli(ms), nil
}

// get reads a JSON value; ttl > 0 refreshes the key's expiry (GETEX).
func (r *redisStore) get(ctx context.Context, k string, ttl time.Duration, out any) (bool, error) {
	var b []byte
	var err error
	if ttl > 0 {
		b, err = r.rdb.GetEx(ctx, k, ttl).Bytes()
	} else {
		b, err = r.rdb.Get(ctx, k).Bytes()
	}
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, redisErr(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return false, nil // a value from an incompatible version: treat as absent
	}
	return true, nil
}

func redisErr(err error) error {
	if err == nil {
		return nil
	}
	return SharedStateDown(err)
}

// SharedStateDown is the error when Redis fails: fail closed, nothing is
// polled (an outage must not turn into unlimited polling of Google).
func SharedStateDown(err error) *envelope.Error {
	return envelope.New(envelope.UpstreamUnavailable, "the shared state (Redis, MCPFLEET_REDIS_URL) is unreachable; nothing was polled, try again shortly").
		WithCause(err)
}
