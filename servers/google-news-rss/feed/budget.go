package feed

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
)

// The request budget per upstream host: a token bucket of BudgetPerMinute
// requests a minute with bursts of BudgetBurst, shared by preview and fetch,
// by every user and (through the shared state) by every replica.
//
// Google documents no limit for the RSS feeds. The lowest public report is
// a block "after 20-30 requests" in quick succession
// (Hakim-Github/my-google-news issue #2); Outsharp's google-news SKILL.md
// advises at least 60 s between polls of one feed and fewer than 10
// concurrent connections. A burst of 10 stays at half the lowest reported
// block, and 4 a minute (240 an hour, 720 per 3-hour window, enough for
// hundreds of scheduled feeds) keeps the sustained rate far below a burst.
const (
	BudgetPerMinute = 4
	BudgetBurst     = 10
)

// budgetMark is set in details of a budget refusal (nothing was sent).
const budgetMark = "budget"

// Budget is the request budget of one upstream host.
type Budget struct {
	l         ratelimit.Limiter
	host      string
	perMinute int
	burst     int
	holds     Holds
	clock     clock.Clock
}

// Holds keep, per host, until when Google asked not to be called again (its
// Retry-After after a throttle, or the backoff), shared like the budget so
// that no replica asks a host that is blocking the deployment.
type Holds interface {
	// HoldUntil records that host is not to be called before until.
	HoldUntil(ctx context.Context, host string, until time.Time) error
	// HeldUntil returns the recorded time (zero if none).
	HeldUntil(ctx context.Context, host string) (time.Time, error)
}

// WithHolds makes the budget refuse every request while a throttle's hold
// lasts (read on clk).
func (b *Budget) WithHolds(h Holds, clk clock.Clock) *Budget {
	if clk == nil {
		clk = clock.System{}
	}
	b.holds, b.clock = h, clk
	return b
}

// Hold stops requests to the host for d (after Google throttled them).
func (b *Budget) Hold(ctx context.Context, d time.Duration) error {
	if b == nil || b.holds == nil || d <= 0 {
		return nil
	}
	return b.holds.HoldUntil(ctx, b.host, b.clock.Now().Add(d))
}

// NewBudget builds the budget of baseURL's host from a ratelimit token
// bucket (memory, Redis or any backend behind the same options).
func NewBudget(baseURL string, perMinute, burst int, opts ...ratelimit.Option) *Budget {
	if perMinute <= 0 {
		perMinute = BudgetPerMinute
	}
	if burst <= 0 {
		burst = BudgetBurst
	}
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		host = strings.ToLower(u.Host)
	}
	return &Budget{l: ratelimit.NewTokenBucket(perMinute, time.Minute, burst, opts...), host: host, perMinute: perMinute, burst: burst}
}

// Host is the key the budget is kept under.
func (b *Budget) Host() string { return b.host }

// String describes the budget for logs and messages.
func (b *Budget) String() string {
	return fmt.Sprintf("%d requests/min, bursts of %d", b.perMinute, b.burst)
}

// Take admits one request to the host or refuses it with rate_limited and
// the wait. A shared-state failure refuses too: fail closed, nothing is sent.
func (b *Budget) Take(ctx context.Context) error {
	if b.holds != nil {
		until, err := b.holds.HeldUntil(ctx, b.host)
		if err != nil {
			return sharedStateDown(err)
		}
		if wait := until.Sub(b.clock.Now()); wait > 0 {
			return envelope.New(envelope.RateLimited,
				"Google throttled this server, so nothing is sent to %s until %s (Google's Retry-After or the backoff); retry after %s, or use fetch_search_feed's cached copy",
				b.host, until.UTC().Format(time.RFC3339), wait.Round(time.Second)).WithRetryAfter(wait).WithDetail(budgetMark, true)
		}
	}
	d, err := b.l.Allow(ctx, b.host)
	if err != nil {
		return sharedStateDown(err)
	}
	if d.Allowed {
		return nil
	}
	wait := max(d.RetryAfter, time.Second)
	return envelope.New(envelope.RateLimited,
		"this server's request budget for %s (%s, shared by every preview and fetch) is spent, so Google is not asked now; retry after %s, or use fetch_search_feed's cached copy",
		b.host, b, wait.Round(time.Second)).WithRetryAfter(wait).WithDetail(budgetMark, true)
}

func sharedStateDown(err error) error {
	return envelope.New(envelope.UpstreamUnavailable, "the shared state (MCPFLEET_REDIS_URL) holding the Google News request budget is unreachable; nothing was sent, try again shortly").
		WithCause(err).WithDetail(budgetMark, true)
}

// OverBudget reports whether err is a budget refusal (nothing reached Google).
func OverBudget(err error) bool {
	e, ok := err.(*envelope.Error)
	return ok && e.Details[budgetMark] == true
}
