package tools

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

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
	failedAt  time.Time       // last failed docs fetch, cleared by a good one
	failErr   error
	exMemo    atomic.Pointer[exchangesMemo]
}

// TTLs from the issue: docs 24 h, exchanges and symbols 1 h.
const (
	DocsTTL     = 24 * time.Hour
	ExchangeTTL = time.Hour
)

// NewService starts from the embedded docs snapshot, so every tool works offline.
func NewService(c *client.Client, opts ...cache.Option) *Service {
	s := &Service{c: c,
		docsCache: cache.New[*docsparse.Docs](DocsTTL, append([]cache.Option{cache.WithStaleFor(30 * 24 * time.Hour)}, opts...)...),
		exchanges: cache.New[client.ExchangeList](ExchangeTTL, append([]cache.Option{cache.WithStaleFor(24 * time.Hour)}, opts...)...),
		symbols:   cache.New[client.SymbolList](ExchangeTTL, append([]cache.Option{cache.WithStaleFor(24 * time.Hour), cache.WithMaxEntries(256)}, opts...)...),
	}
	snap := docsparse.Snapshot()
	s.know.Store(newKnowledge(snap))
	s.from = snap
	return s
}

func (s *Service) current() *knowledge { return s.know.Load() }

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
	s.adopt(d)
	return r
}

// docsRetryAfter is how long a failed docs fetch (with no copy to serve) is not retried.
const docsRetryAfter = 5 * time.Minute

func (s *Service) snapshot(err error) docsResult {
	snap := docsparse.Snapshot()
	return docsResult{docs: snap, source: "snapshot", note: "the docs site could not be fetched (" + errText(err) + "); serving the embedded snapshot (docs of " + snap.LastChange + ")"}
}

// adopt rebuilds the NL builder and validator when newer docs arrive.
func (s *Service) adopt(d *docsparse.Docs) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d == s.from {
		return
	}
	s.from = d
	s.know.Store(newKnowledge(d))
}
