package poll

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

type countingFetcher struct {
	n   atomic.Int32
	err error
}

func (c *countingFetcher) Fetch(ctx context.Context, q string, e query.Edition) (feed.Feed, error) {
	c.n.Add(1)
	if c.err != nil {
		return feed.Feed{}, c.err
	}
	return feed.Feed{Items: []feed.Item{{Title: q}}}, nil
}

// countingStore counts shared-state reads.
type countingStore struct {
	Store
	reads atomic.Int32
}

func (s *countingStore) Spec(ctx context.Context, key string) (Spec, bool, error) {
	s.reads.Add(1)
	return s.Store.Spec(ctx, key)
}

func (s *countingStore) State(ctx context.Context, key string) (State, bool, error) {
	s.reads.Add(1)
	return s.Store.State(ctx, key)
}

// TestSettledWindow: once a window's poll is over, repeat fetches in that
// window are answered without the shared state and with what it holds; a
// replica's first fetch reads the shared state (and polls nothing); the next
// window goes back to the shared state and polls once.
func TestSettledWindow(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 11, 24, 9, 10, 0, 0, time.UTC) // window 09:00–12:00
	clk := clock.NewFake(start)
	shared := &countingStore{Store: NewMemoryStore()}
	claims := ratelimit.NewWindowClaims(Window, ratelimit.WithClock(clk))
	up := &countingFetcher{}
	a := New(Options{Store: shared, Claims: claims, Up: up, Clock: clk})
	b := New(Options{Store: shared, Claims: claims, Up: up, Clock: clk})
	if err := shared.PutSpec(ctx, "k", Spec{Q: "shipping", Edition: "US:en"}); err != nil {
		t.Fatal(err)
	}
	first, err := a.Fetch(ctx, "k")
	if err != nil || first.Status != StatusFresh || up.n.Load() != 1 {
		t.Fatalf("first: %+v %v, %d polls", first, err, up.n.Load())
	}
	reads := shared.reads.Load()
	for range 3 {
		clk.Set(clk.Now().Add(30 * time.Minute))
		r, err := a.Fetch(ctx, "k")
		if err != nil || r.Status != StatusCached || len(r.Items) != 1 || r.Q != "shipping" ||
			!r.NextPollAt.Equal(first.NextPollAt) || !r.WindowStart.Equal(first.WindowStart) {
			t.Fatalf("repeat: %+v %v", r, err)
		}
	}
	if shared.reads.Load() != reads || up.n.Load() != 1 {
		t.Fatalf("repeats read the shared state %d times and polled %d times", shared.reads.Load()-reads, up.n.Load()-1)
	}
	if r, err := b.Fetch(ctx, "k"); err != nil || r.Status != StatusCached || len(r.Items) != 1 || shared.reads.Load() == reads {
		t.Fatalf("replica b: %+v %v (reads %d)", r, err, shared.reads.Load()-reads)
	}
	clk.Set(first.NextPollAt.Add(time.Minute)) // next window
	// a 500 after its retry: answered as the error, the window is not spent
	up.err = envelope.New(envelope.UpstreamError, "Google News answered 500").WithRetryable(true).WithDetail("http_status", 500)
	if r, err := a.Fetch(ctx, "k"); !errors.Is(err, up.err) || up.n.Load() != 2 {
		t.Fatalf("5xx: %+v %v, %d polls", r, err, up.n.Load())
	}
	// Google throttles: the window is spent, the feed deferred
	up.err = envelope.New(envelope.RateLimited, "throttled").WithDetail("throttled", true)
	r, err := a.Fetch(ctx, "k")
	if err != nil || r.Status != StatusDeferred || up.n.Load() != 3 || r.NextPollAt.Equal(first.NextPollAt) {
		t.Fatalf("next window: %+v %v, %d polls", r, err, up.n.Load())
	}
	if r, err := a.Fetch(ctx, "k"); err != nil || r.Status != StatusDeferred || up.n.Load() != 3 {
		t.Fatalf("deferred repeat: %+v %v, %d polls", r, err, up.n.Load())
	}
}
