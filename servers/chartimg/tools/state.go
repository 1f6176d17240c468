package tools

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// knowledge is one copy of the docs with the builder and validator made from it.
type knowledge struct {
	docs      *docsparse.Docs
	builder   *nl.Builder
	validator *validate.Validator
}

func newKnowledge(d *docsparse.Docs) *knowledge {
	b := nl.New(d)
	return &knowledge{docs: d, builder: b, validator: validate.New(d, b)}
}

// Service holds the client, the caches and the current docs knowledge.
type Service struct {
	c         *client.Client
	docsCache *cache.Cache[*docsparse.Docs]
	exchanges *cache.Cache[client.ExchangeList]
	symbols   *cache.Cache[client.SymbolList]
	know      atomic.Pointer[knowledge]
	mu        sync.Mutex
	from      *docsparse.Docs // docs the current knowledge was built from
	fromAt    time.Time       // and when they were fetched (a Redis cache decodes a new copy per Get)
	failedAt  time.Time       // last failed docs fetch, cleared by a good one
	failErr   error
}

// TTLs from the original design: docs 24 h, exchanges and symbols 1 h.
const (
	DocsTTL     = 24 * time.Hour
	ExchangeTTL = time.Hour
)

// CachePrefix starts the Redis keys of the shared caches: CachePrefix+"docs:docs",
// CachePrefix+"exchanges:list", CachePrefix+"symbols:<EXCHANGE>".
const CachePrefix = "chartimg:cache:"

// NewService starts from the embedded docs snapshot (parsed on first use), so
// every tool works offline.
// With rdb the docs, exchanges and symbols caches live in Redis, shared by all
// replicas (nil: in this process); opts apply to all three.
func NewService(c *client.Client, rdb *redis.Client, opts ...cache.Option) *Service {
	return NewServiceOn(c, func(prefix string) []cache.Option {
		if rdb == nil {
			return nil
		}
		return []cache.Option{cache.WithRedis(rdb, prefix)}
	}, opts...)
}

// NewServiceOn is NewService with the caches' backend given per key prefix
// (serve's Registry.CacheOptions: Redis, the state file, or memory).
func NewServiceOn(c *client.Client, backend func(prefix string) []cache.Option, opts ...cache.Option) *Service {
	with := func(name string, own ...cache.Option) []cache.Option {
		own = append(own, backend(CachePrefix+name+":")...)
		return append(own, opts...)
	}
	s := &Service{c: c,
		docsCache: cache.New[*docsparse.Docs](DocsTTL, with("docs", cache.WithStaleFor(30*24*time.Hour))...),
		// Exchanges and symbols are never refreshed by hand: each replica may
		// keep a local copy of the shared one (docs are, by forceRefresh).
		exchanges: cache.New[client.ExchangeList](ExchangeTTL, with("exchanges", cache.WithStaleFor(24*time.Hour))...),
		symbols:   cache.New[client.SymbolList](ExchangeTTL, with("symbols", cache.WithStaleFor(24*time.Hour), cache.WithMaxEntries(256))...),
	}
	return s
}

// current is the knowledge the tools use. Until docs are fetched it is built
// from the embedded snapshot on first use, not at start: parsing the page and
// building the NL dictionary was most of the server's cold start.
func (s *Service) current() *knowledge {
	if k := s.know.Load(); k != nil {
		return k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := s.know.Load(); k != nil {
		return k
	}
	snap := docsparse.Snapshot()
	k := newKnowledge(snap)
	s.from = snap
	s.know.Store(k)
	return k
}

// docsResult is the docs plus where they came from.
type docsResult struct {
	docs      *docsparse.Docs
	source    string // live, cache, stale, snapshot
	fetchedAt time.Time
	age       time.Duration
	note      string
}

// loadDocs returns the cached docs (24 h), fetching when due; a failed fetch
// serves the last good copy marked stale, or the embedded snapshot.
func (s *Service) loadDocs(ctx context.Context, force bool) docsResult {
	fetch := func(ctx context.Context) (*docsparse.Docs, error) { return s.c.Docs(ctx) }
	get := s.docsCache.Get
	if force {
		get = s.docsCache.Refresh
	}
	// With no good copy yet, a recent failure is remembered for a few minutes so
	// an unreachable docs site does not cost every call a failed fetch.
	s.mu.Lock()
	failed, failErr := s.failedAt, s.failErr
	s.mu.Unlock()
	if !force && !failed.IsZero() && time.Since(failed) < docsRetryAfter {
		d, meta, err := s.docsCache.Get(ctx, "docs", func(context.Context) (*docsparse.Docs, error) { return nil, failErr })
		if err != nil {
			return s.snapshot(failErr)
		}
		r := docsResult{docs: d, source: "cache", fetchedAt: meta.FetchedAt, age: meta.Age}
		if meta.Stale {
			r.source, r.note = "stale", "the docs site could not be fetched ("+errText(failErr)+"); serving the copy fetched "+meta.Age.Round(time.Second).String()+" ago"
		}
		return r
	}
	d, meta, err := get(ctx, "docs", fetch)
	if err != nil {
		s.mu.Lock()
		s.failedAt, s.failErr = time.Now(), err
		s.mu.Unlock()
		return s.snapshot(err)
	}
	s.mu.Lock()
	s.failedAt, s.failErr = time.Time{}, nil
	s.mu.Unlock()
	r := docsResult{docs: d, fetchedAt: meta.FetchedAt, age: meta.Age}
	switch {
	case meta.Stale:
		r.source, r.note = "stale", "the docs site could not be fetched ("+errText(meta.Err)+"); serving the copy fetched "+meta.Age.Round(time.Second).String()+" ago"
	case meta.Hit:
		r.source = "cache"
	default:
		r.source = "live"
	}
	s.adopt(d, meta.FetchedAt)
	return r
}

// docsRetryAfter is how long a failed docs fetch (with no copy to serve) is not retried.
const docsRetryAfter = 5 * time.Minute

func (s *Service) snapshot(err error) docsResult {
	snap := docsparse.Snapshot()
	return docsResult{docs: snap, source: "snapshot", note: "the docs site could not be fetched (" + errText(err) + "); serving the embedded snapshot (docs of " + snap.LastChange + ")"}
}

// adopt rebuilds the NL builder and validator when newer docs arrive: a copy
// with the same fetch time is the same docs (Redis hands out a new pointer).
func (s *Service) adopt(d *docsparse.Docs, fetchedAt time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d == s.from || (!fetchedAt.IsZero() && fetchedAt.Equal(s.fromAt)) {
		return
	}
	s.from, s.fromAt = d, fetchedAt
	s.know.Store(newKnowledge(d))
}
