package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Model lifecycle. OpenAI's deprecations page
// (https://developers.openai.com/api/docs/deprecations, notice of
// 2026-06-11) shuts down gpt-5, gpt-5-mini, gpt-5-nano and their
// -2025-08-07 snapshots on 2026-12-11; the same page says to watch for
// shutdowns with the optional shutdown_date ("YYYY-MM-DD" or null) of
// GET /v1/models and GET /v1/models/{id}. A shut-down model answers 404
// model_not_found.

// The recommended replacements are the rows of the model table
// (models.go, ReplacementFor).

// WarnWithin is how close a shutdown must be to warn about it.
const WarnWithin = 30 * 24 * time.Hour

// LifecycleTTL is how long a model's shutdown date is trusted before it is
// asked again.
const LifecycleTTL = 24 * time.Hour

// lifecycleRetry is when a failed check is tried again.
const lifecycleRetry = time.Hour

// ModelInfo is the answer of GET /v1/models/{id} (the fields used).
type ModelInfo struct {
	ID           string  `json:"id"`
	Object       string  `json:"object"`
	ShutdownDate *string `json:"shutdown_date"`
}

// RetrieveModel asks GET /models/{id} through the SDK (the body is read
// raw: shutdown_date may be null or, on drift, not a date). A 404 is
// NotFound naming the fix.
func (c *Client) RetrieveModel(ctx context.Context, id string) (*ModelInfo, error) {
	if c.cfg.APIKey == "" {
		return nil, envelope.New(envelope.Unauthenticated, "no OpenAI API key: set %s", EnvAPIKey)
	}
	st := &callState{}
	var body []byte
	err := c.sdk.Get(context.WithValue(ctx, callKey{}, st), "models/"+url.PathEscape(id), nil, &body)
	switch {
	case ctx.Err() != nil:
		return nil, envelope.From(ctx.Err())
	case st.failed():
		return nil, c.httpError(st)
	case err != nil:
		return nil, envelope.New(envelope.UpstreamUnavailable, "could not reach OpenAI (%s); check %s", extract.Clip(err.Error(), 160), EnvBaseURL)
	}
	drift.Default().Observe(c.cfg.Logger, "OpenAI", "model", 200, st.okHeader(), body)
	m, err := decodeModel(body)
	if err != nil {
		return nil, envelope.New(envelope.UpstreamError, "OpenAI's model object for %s is not readable; check %s", extract.Clip(id, 60), EnvBaseURL).WithRetryable(true)
	}
	return m, nil
}

func decodeModel(body []byte) (*ModelInfo, error) {
	var m ModelInfo
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if m.ID == "" {
		return nil, errors.New("no id")
	}
	return &m, nil
}

// Lifecycle is what is known of the configured model's shutdown.
type Lifecycle struct {
	Model string `json:"model"`
	// Checked is false until GET /v1/models/{id} has answered once.
	Checked      bool      `json:"checked"`
	CheckedAt    time.Time `json:"checked_at"`
	ShutdownDate string    `json:"shutdown_date,omitempty"` // YYYY-MM-DD, "" for none announced
	DaysLeft     *int      `json:"days_left,omitempty"`
	// Replacement is OpenAI's recommended replacement, "" when its
	// deprecations table names none.
	Replacement string `json:"replacement,omitempty"`
	// Gone is true when OpenAI answered 404 model_not_found.
	Gone bool `json:"gone,omitempty"`
	// Err is why the last check failed (the last good answer is kept).
	Err string `json:"error,omitempty"`
}

// Warning is the sentence to show when the model is gone or shuts down within
// WarnWithin, else "".
func (l Lifecycle) Warning() string {
	switch {
	case l.Gone:
		return fmt.Sprintf("OpenAI no longer serves %s (404 model_not_found): every search fails; %s and restart", l.Model, moveTo(l.Model))
	case l.DaysLeft == nil:
		return ""
	case *l.DaysLeft <= 0:
		return fmt.Sprintf("OpenAI shut %s down on %s: searches will fail; %s and restart", l.Model, l.ShutdownDate, moveTo(l.Model))
	case time.Duration(*l.DaysLeft)*24*time.Hour <= WarnWithin:
		return fmt.Sprintf("OpenAI shuts %s down on %s (in %d days); %s before then", l.Model, l.ShutdownDate, *l.DaysLeft, moveTo(l.Model))
	}
	return ""
}

// Watcher keeps the configured model's lifecycle, asked off the hot path
// (Start: at start-up, then once per LifecycleTTL) and read by Status.
type Watcher struct {
	c   *Client
	now func() time.Time

	mu    sync.Mutex
	state Lifecycle
	first chan struct{} // closed after the first check
	once  sync.Once
}

// NewWatcher watches c's model; now is the clock (nil: time.Now).
func NewWatcher(c *Client, now func() time.Time) *Watcher {
	if now == nil {
		now = time.Now
	}
	m := c.cfg.Model
	return &Watcher{c: c, now: now, first: make(chan struct{}),
		state: Lifecycle{Model: m, Replacement: ReplacementFor(m)}}
}

// Start checks now and then every LifecycleTTL until ctx ends; onChange is
// called after each check (for the log). Without a key nothing is asked.
func (w *Watcher) Start(ctx context.Context, onChange func(Lifecycle)) {
	if !w.c.HasKey() {
		w.once.Do(func() { close(w.first) })
		return
	}
	go func() {
		for {
			l := w.Check(ctx)
			if onChange != nil {
				onChange(l)
			}
			next := LifecycleTTL
			if l.Err != "" {
				next = lifecycleRetry // OpenAI did not answer: sooner than a day
			}
			t := time.NewTimer(next)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
}

// Check asks OpenAI once (within 10 s) and records the answer.
func (w *Watcher) Check(ctx context.Context) Lifecycle {
	defer w.once.Do(func() { close(w.first) })
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	m, err := w.c.RetrieveModel(ctx, w.state.Model)
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	switch {
	case err == nil:
		w.state.apply(m, now)
	case envelope.From(err).Code == envelope.NotFound:
		w.state.Checked, w.state.CheckedAt, w.state.Gone, w.state.Err = true, now, true, ""
	default:
		w.state.Err = extract.Clip(envelope.From(err).Message, 200)
	}
	return w.state
}

// apply records a model object read at now. A shutdown_date that is not a
// date is kept as text (shown, not counted down).
func (l *Lifecycle) apply(m *ModelInfo, now time.Time) {
	l.Checked, l.CheckedAt, l.Gone, l.Err = true, now, false, ""
	l.ShutdownDate, l.DaysLeft = "", nil
	if m.ShutdownDate == nil {
		return
	}
	if d := strings.TrimSpace(*m.ShutdownDate); d != "" {
		l.ShutdownDate = extract.Clip(d, 40)
		if t, err := time.Parse(time.DateOnly, d); err == nil {
			left := daysUntil(now, t)
			l.DaysLeft = &left
		}
	}
}

// daysUntil counts whole days from now's UTC date to the shutdown date.
func daysUntil(now, shutdown time.Time) int {
	y, m, d := now.UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return int(shutdown.Sub(today).Hours() / 24)
}

// Status is the last known lifecycle. wait > 0 waits that long for the
// start-up check if it has not answered yet (get_search_capabilities just
// after start, mcpfleet doctor); searches never wait.
func (w *Watcher) Status(ctx context.Context, wait time.Duration) Lifecycle {
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-w.first:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state
}
