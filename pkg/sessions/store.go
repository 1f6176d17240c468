// Package sessions keeps legacy (2025-11-25) streamable-HTTP sessions: one
// Store interface with a memory and a Redis implementation, and the Manager
// that hands mcp-go its session ids from a Store. 2026-07-28 clients have no
// sessions; nothing here is used for them.
package sessions

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"sync"
)

// Store records who owns each session id, within the caps. Every request with
// a session id is one lookup in it: nothing is cached beside it, so a session
// ended on any replica is unknown to every replica from then on.
type Store interface {
	// Reserve mints an id and records it for user, within the caps; init is
	// the initialize params, kept so another replica can adopt the session.
	Reserve(ctx context.Context, user string, init []byte) (id string, err error)
	// Lookup returns a live id's owner and init params (keeping it alive in
	// Redis); ok is false for an unknown, expired or ended id.
	Lookup(ctx context.Context, id string) (owner string, init []byte, ok bool, err error)
	// End forgets id.
	End(ctx context.Context, id string) error
}

// Refusal is a refused session operation as the client sees it: the HTTP
// status, the Retry-After seconds and a message that names the fix.
type Refusal struct {
	Status     int
	RetryAfter int
	msg        string
}

func (e *Refusal) Error() string { return e.msg }

func tooManyForUser(max int) error {
	return &Refusal{http.StatusTooManyRequests, 60, fmt.Sprintf(
		"too many open sessions for this user (at most %d): end unused ones with DELETE, or wait for idle ones to expire", max)}
}

func tooManyInTotal(max int) error {
	return &Refusal{http.StatusServiceUnavailable, 60, fmt.Sprintf(
		"the server holds its maximum of %d sessions; retry later, or use protocol 2026-07-28 (no sessions)", max)}
}

// ErrStore is what a client sees when Redis does not answer: the address and
// the cause go to the log, not to the client.
var ErrStore = &Refusal{http.StatusServiceUnavailable, 1,
	"the session store (Redis) is not answering; retry shortly, or use protocol 2026-07-28 (no sessions)"}

const idPrefix = "mcp-session-"

func newID() string { return idPrefix + rand.Text() } // 130 bits, visible ASCII

// memoryStore is the Store of a single process.
type memoryStore struct {
	mu         sync.Mutex
	owner      map[string]string // session id -> user
	perUser    map[string]int    // user -> sessions held
	max        int
	maxPerUser int
}

// NewMemory is a Store for one process: at most max sessions, maxPerUser per user.
func NewMemory(max, maxPerUser int) Store {
	return &memoryStore{owner: map[string]string{}, perUser: map[string]int{}, max: max, maxPerUser: maxPerUser}
}

func (m *memoryStore) Reserve(_ context.Context, user string, _ []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.perUser[user] >= m.maxPerUser {
		return "", tooManyForUser(m.maxPerUser)
	}
	if len(m.owner) >= m.max {
		return "", tooManyInTotal(m.max)
	}
	id := newID()
	m.owner[id] = user
	m.perUser[user]++
	return id, nil
}

// Lookup: in one process every live session is held by mcp-go here, so the
// initialize params are never needed.
func (m *memoryStore) Lookup(_ context.Context, id string) (string, []byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	owner, ok := m.owner[id]
	return owner, nil, ok, nil
}

func (m *memoryStore) End(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u, ok := m.owner[id]; ok {
		delete(m.owner, id)
		if m.perUser[u]--; m.perUser[u] <= 0 {
			delete(m.perUser, u)
		}
	}
	return nil
}
