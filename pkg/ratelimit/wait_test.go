package ratelimit

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestWaitFanOut: 20 callers through 5 per 100 ms all get through, and the
// limiter spaces them into at least 4 windows.
func TestWaitFanOut(t *testing.T) {
	t.Parallel()
	l := NewSlidingWindow(5, 100*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Go(func() { errs <- Wait(ctx, l, "bridge") })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Fatalf("20 calls at 5 per 100ms finished in %v; want ≥ 300ms", el)
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	l := NewSlidingWindow(1, time.Hour)
	if err := Wait(context.Background(), l, "k"); err != nil {
		t.Fatal(err)
	}

	// A deadline before the next admission: fail at once with the wait.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := Wait(ctx, l, "k")
	var de *DeadlineError
	if !errors.As(err, &de) || !errors.Is(err, context.DeadlineExceeded) || de.RetryAfter <= 59*time.Minute {
		t.Fatalf("got %v, want a DeadlineError of about an hour", err)
	}

	// No deadline: cancellation ends the wait.
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if err := Wait(ctx, l, "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}

	// Already done: no call is counted.
	l2 := NewSlidingWindow(1, time.Hour)
	if err := Wait(ctx, l2, "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if d, _ := l2.Allow(context.Background(), "k"); !d.Allowed {
		t.Fatal("Wait on a done context consumed a call")
	}
}
