package client

import (
	"context"
	"sync"
)

// Admission lets a caller's per-minute limit count only the calls that reach
// Polymarket: the limit protects the upstream, so an answer served from the
// cache costs nothing. A tool call carries one Admission; the first cache miss
// asks it, later misses of the same call are already admitted.
type Admission struct {
	mu    sync.Mutex
	allow func(context.Context) error
	asked bool
	err   error
}

// NewAdmission wraps allow (nil admits everything).
func NewAdmission(allow func(context.Context) error) *Admission { return &Admission{allow: allow} }

type admissionKey struct{}

// WithAdmission makes ctx's upstream fetches ask a first.
func WithAdmission(ctx context.Context, a *Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

func admissionOf(ctx context.Context) *Admission {
	a, _ := ctx.Value(admissionKey{}).(*Admission)
	return a
}

func (a *Admission) admit(ctx context.Context) error {
	if a == nil || a.allow == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.asked {
		a.asked, a.err = true, a.allow(ctx)
	}
	return a.err
}

// refused is the refusal, if the admission was asked and said no.
func (a *Admission) refused() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Asked reports whether any fetch of the call reached for the upstream.
func (a *Admission) Asked() bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.asked
}
