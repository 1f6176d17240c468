package poll

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// Window is the polling window: aligned on the Unix epoch, so windows start at
// 00:00, 03:00, … UTC (w = floor(unix seconds / 10800)).
const Window = 3 * time.Hour

// Statuses of a fetch.
const (
	StatusFresh    = "fresh"    // polled upstream just now
	StatusCached   = "cached"   // already polled in this window; served from cache
	StatusDeferred = "deferred" // Google throttled this window's poll; cache served, next poll next window
)

// Fetcher is the upstream (feed.Client).
type Fetcher interface {
	Fetch(ctx context.Context, q string, e query.Edition) (feed.Feed, error)
}

// Poller answers fetch_search_feed.
type Poller struct {
	store  Store
	claims ratelimit.Claims
	up     Fetcher
	clock  clock.Clock
	log    zerolog.Logger
	// WaitFor bounds how long a caller waits for a poll in flight elsewhere
	// (another replica or caller holds this window's claim).
	WaitFor  time.Duration
	waitStep time.Duration
	settled  settledFeeds
}

// Options build a Poller.
type Options struct {
	Store  Store
	Claims ratelimit.Claims
	Up     Fetcher
	Clock  clock.Clock // default system
	Log    zerolog.Logger
	// WaitFor default 12 s: the upstream's 10 s deadline plus slack.
	WaitFor time.Duration
}

// New builds a Poller.
func New(o Options) *Poller {
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.WaitFor <= 0 {
		o.WaitFor = feed.DefaultTimeout + 2*time.Second
	}
	p := &Poller{store: o.Store, claims: o.Claims, up: o.Up, clock: o.Clock, log: o.Log, WaitFor: o.WaitFor, waitStep: 100 * time.Millisecond}
	p.settled.m.Max = maxSettled
	return p
}

// Result is one fetch's answer.
type Result struct {
	Spec
	State
	Status      string
	WindowStart time.Time
	NextPollAt  time.Time
}

// Fetch serves key's feed, polling upstream only if this caller wins the
// current window's claim.
func (p *Poller) Fetch(ctx context.Context, key string) (Result, error) {
	w, next := ratelimit.WindowOf(p.clock.Now(), Window)
	if f, ok := p.settled.lookup(key, w); ok {
		return Result{Spec: f.spec, State: f.st, Status: cachedStatus(f.st, w), WindowStart: next.Add(-Window), NextPollAt: next}, nil
	}
	spec, ok, err := p.store.Spec(ctx, key)
	if err != nil {
		return Result{}, err
	}
	if !ok {
		return Result{}, envelope.New(envelope.NotFound, "unknown query_key %s (keys are kept, not guessed, and may have expired); call build_search_feed to get one", key).
			WithDetail("field", "query_key")
	}
	ed, err := query.ResolveEdition(spec.Edition)
	if err != nil {
		return Result{}, err
	}
	claim, err := p.claims.Claim(ctx, key)
	if err != nil {
		return Result{}, SharedStateDown(err)
	}
	res := Result{Spec: spec, WindowStart: claim.Next.Add(-Window), NextPollAt: claim.Next}
	if !claim.Granted {
		st, ok, again, err := p.awaitWindow(ctx, key, claim)
		if err != nil {
			return Result{}, err
		}
		if !again.Granted {
			if !ok {
				return Result{}, envelope.New(envelope.RateLimited, "this feed was already polled in the current window and nothing is cached (the poll failed before it finished); next poll at %s",
					claim.Next.UTC().Format(time.RFC3339)).WithRetryAfter(claim.RetryAfter)
			}
			res.State, res.Status = st, cachedStatus(st, claim.Window)
			if st.PolledWindow == claim.Window {
				p.settled.keep(key, spec, st)
			}
			return res, nil
		}
		// the holder gave the window back (its poll failed without throttling): poll now
		claim = again
		res.WindowStart, res.NextPollAt = claim.Next.Add(-Window), claim.Next
	}
	res, err = p.poll(ctx, key, ed, claim, res)
	if err == nil {
		p.settled.keep(key, spec, res.State)
	}
	return res, err
}

// cachedStatus is the status of a state served from the cache in window w:
// deferred when that window's poll failed.
func cachedStatus(st State, w int64) string {
	if st.PolledWindow == w && st.Deferred {
		return StatusDeferred
	}
	return StatusCached
}

func (p *Poller) poll(ctx context.Context, key string, ed query.Edition, claim ratelimit.Claim, res Result) (Result, error) {
	old, _, err := p.store.State(ctx, key)
	if err != nil {
		_ = p.claims.Release(context.WithoutCancel(ctx), claim)
		return Result{}, err
	}
	f, ferr := p.up.Fetch(ctx, res.Q, ed)
	// the poll happened (or may have); record it even if the caller has gone
	sctx := context.WithoutCancel(ctx)
	if ferr != nil && !feed.Throttled(ferr) {
		// Only throttling (429, 503, 403, the Sorry page or redirect) costs
		// the window. A 5xx or timeout (already retried once), a bad body, an
		// unsupported edition or a refusal of the request budget gives the
		// window back: the caller gets the error and may try again.
		if err := p.claims.Release(sctx, claim); err != nil {
			p.log.Warn().Err(err).Msg("google-news-rss: releasing a window claim failed; the feed waits for the next window")
		}
		return Result{}, ferr
	}
	st := State{Items: old.Items, FetchedAt: old.FetchedAt, PolledWindow: claim.Window, Capped: old.Capped}
	res.Status = StatusFresh
	if ferr != nil {
		e := envelope.From(ferr)
		st.Deferred, st.LastError = true, &ErrInfo{Code: string(e.Code), Message: e.Message}
		res.Status = StatusDeferred
		p.log.Warn().Str("query_key", key).Str("code", string(e.Code)).
			Time("next_poll_at", claim.Next).Msg("google-news-rss: Google throttled the poll; the feed is deferred to the next window")
	} else {
		st.Items, st.FetchedAt, st.Capped = f.Items, p.clock.Now().UTC(), f.Capped()
	}
	if st.Items == nil {
		st.Items = []feed.Item{}
	}
	if err := p.store.PutState(sctx, key, st); err != nil {
		return Result{}, err
	}
	res.State = st
	return res, nil
}

// awaitWindow returns the cached state once it reflects the claim's window
// (the holder has finished), waiting up to WaitFor; after that, whatever is
// cached. If the holder gives the window back meanwhile (its poll failed
// without throttling), the claim is taken and returned granted.
func (p *Poller) awaitWindow(ctx context.Context, key string, held ratelimit.Claim) (State, bool, ratelimit.Claim, error) {
	deadline := time.Now().Add(p.WaitFor)
	for {
		st, ok, err := p.store.State(ctx, key)
		if err != nil || (ok && st.PolledWindow >= held.Window) || !time.Now().Before(deadline) {
			return st, ok, ratelimit.Claim{}, err
		}
		if c, err := p.claims.Claim(ctx, key); err == nil && c.Granted {
			return st, ok, c, nil
		}
		t := time.NewTimer(p.waitStep)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			if ok {
				return st, ok, ratelimit.Claim{}, nil
			}
			return State{}, false, ratelimit.Claim{}, envelope.From(errors.Join(ctx.Err()))
		}
	}
}
