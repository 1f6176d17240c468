package ratelimit_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
)

// A broker allows 20 requests per second and 200 per minute per account.
// Calls denied by the per-second limit do not count against the minute.
func ExampleAll() {
	limiter := ratelimit.All(
		ratelimit.NewTokenBucket(20, time.Second, 20),
		ratelimit.NewSlidingWindow(200, time.Minute),
	)
	admitted := 0
	for i := 0; i < 50; i++ {
		if d, _ := limiter.Allow(context.Background(), "acct-1"); d.Allowed {
			admitted++
		}
	}
	fmt.Println("admitted at once:", admitted)
	// Output: admitted at once: 20
}

// "20 searches per 10 minutes per user", literally.
func ExampleNewSlidingWindow() {
	limiter := ratelimit.NewSlidingWindow(20, 10*time.Minute)
	var last ratelimit.Decision
	for i := 0; i < 21; i++ {
		last, _ = limiter.Allow(context.Background(), "user-hash")
	}
	fmt.Println(last.Allowed, last.RetryAfter > 9*time.Minute)
	// Output: false true
}

// Poll a feed at most once per 3-hour window, across replicas when
// WithRedis is given.
func ExampleNewWindowClaims() {
	claims := ratelimit.NewWindowClaims(3 * time.Hour)
	ctx := context.Background()
	c, _ := claims.Claim(ctx, "query-key")
	if c.Granted {
		err := poll()
		if err != nil && !isUpstreamThrottle(err) {
			_ = claims.Release(ctx, c) // nothing reached upstream: allow a retry this window
		}
		// Success or 429/503: keep the claim; the next poll is at c.Next.
	}
	again, _ := claims.Claim(ctx, "query-key")
	fmt.Println(c.Granted, again.Granted, again.Next.Equal(c.Next))
	// Output: true false true
}

func poll() error                     { return nil }
func isUpstreamThrottle(_ error) bool { return false }
