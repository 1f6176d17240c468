package ratelimit

import (
	"context"
	"fmt"
	"time"
)

// DeadlineError is returned by Wait when the limiter's RetryAfter already
// ends after the context's deadline, so waiting could not succeed. It
// matches errors.Is(err, context.DeadlineExceeded) and carries the wait a
// caller can report as retry-after.
type DeadlineError struct{ RetryAfter time.Duration }

func (e *DeadlineError) Error() string {
	return fmt.Sprintf("ratelimit: next admission in %v, after the context deadline", e.RetryAfter)
}

func (e *DeadlineError) Unwrap() error { return context.DeadlineExceeded }

// minWait keeps Wait from spinning on a limiter that denies without a
// RetryAfter.
const minWait = 100 * time.Microsecond

// Wait blocks until l admits a call for key, and returns nil; the call is
// then counted. It returns ctx.Err() if ctx ends first, a *DeadlineError
// without waiting if the next admission is after ctx's deadline, and the
// limiter's error (e.g. Redis down) as is.
//
// Wait is client-side throttling: a bridge that fans out 40 quote calls
// under a 20/s upstream limit calls Wait before each. Waiters are not
// queued; each retries after the RetryAfter it was given, so under heavy
// contention the order of admission is not FIFO.
//
// Wait sleeps on the real clock even when the limiter has a fake one.
func Wait(ctx context.Context, l Limiter, key string) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := l.Allow(ctx, key)
		if err != nil {
			return err
		}
		if d.Allowed {
			return nil
		}
		delay := max(d.RetryAfter, minWait)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < delay {
			return &DeadlineError{RetryAfter: delay}
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
