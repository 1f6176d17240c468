package serve

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// sessions tracks legacy (2025-11-25) streamable-HTTP sessions: who owns each
// id, and how many each user holds. It is mcp-go's session id manager (through
// a resolver, which sees the request and so the bearer user); mcp-go's own
// idle sweeper (WithSessionIdleTTL) expires idle sessions through Terminate,
// which also frees what mcp-go holds for them (clientInfo, capabilities).
//
// A new session needs a slot, reserved before mcp-go sees the initialize (or
// the GET that opens a stream without a session id): a full table is a clear
// error instead of unbounded memory. 2026-07-28 clients have no sessions.
type sessions struct {
	mu         sync.Mutex
	owner      map[string]string // session id -> user
	perUser    map[string]int    // user -> sessions held + slots reserved
	reserved   int               // slots reserved, not yet bound to an id
	max        int
	maxPerUser int
}

func newSessions(max, maxPerUser int) *sessions {
	return &sessions{owner: map[string]string{}, perUser: map[string]int{}, max: max, maxPerUser: maxPerUser}
}

// errTooManySessions carries the HTTP status of a refused new session.
type errTooManySessions struct {
	status int
	msg    string
}

func (e *errTooManySessions) Error() string { return e.msg }

// slot is a reserved place for one new session, bound to the id mcp-go
// generates, or released when the request ends without one.
type slot struct {
	s     *sessions
	user  string
	bound bool
}

type slotKey struct{}

func (s *sessions) reserve(user string) (*slot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perUser[user] >= s.maxPerUser {
		return nil, &errTooManySessions{http.StatusTooManyRequests, fmt.Sprintf(
			"too many open sessions for this user (at most %d): end unused ones with DELETE, or wait for idle ones to expire", s.maxPerUser)}
	}
	if len(s.owner)+s.reserved >= s.max {
		return nil, &errTooManySessions{http.StatusServiceUnavailable, fmt.Sprintf(
			"the server holds its maximum of %d sessions; retry later, or use protocol 2026-07-28 (no sessions)", s.max)}
	}
	s.reserved++
	s.perUser[user]++
	return &slot{s: s, user: user}, nil
}

// release gives back a slot mcp-go did not use (the request failed first).
func (sl *slot) release() {
	s := sl.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sl.bound {
		sl.bound = true
		s.reserved--
		s.dropUserLocked(sl.user)
	}
}

func (s *sessions) dropUserLocked(user string) {
	if s.perUser[user]--; s.perUser[user] <= 0 {
		delete(s.perUser, user)
	}
}

func (s *sessions) ownerOf(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.owner[id]
	return u, ok
}

// ResolveSessionIdManager implements server.SessionIdManagerResolver. r is nil
// when mcp-go's sweeper expires a session.
func (s *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	var sl *slot
	if r != nil {
		sl, _ = r.Context().Value(slotKey{}).(*slot)
	}
	return sessionIDs{s: s, slot: sl}
}

// sessionIDs is the manager for one request: Generate binds its reserved slot.
type sessionIDs struct {
	s    *sessions
	slot *slot
}

const sessionPrefix = "mcp-session-"

var errUnknownSession = errors.New("session not found")

// Generate returns a random id (130 bits, visible ASCII) bound to the request's slot.
func (m sessionIDs) Generate() string {
	id := sessionPrefix + rand.Text()
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.slot != nil && !m.slot.bound {
		m.slot.bound = true
		s.reserved--
		s.owner[id] = m.slot.user
		return id
	}
	// No slot: a path that does not pass the gate. Count it under no user,
	// still bounded by the total.
	s.owner[id] = ""
	s.perUser[""]++
	return id
}

// Validate: unknown and terminated ids are errors (mcp-go answers 404).
func (m sessionIDs) Validate(id string) (bool, error) {
	if _, ok := m.s.ownerOf(id); !ok {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate forgets id (DELETE, or idle expiry). Ownership was checked by the gate.
func (m sessionIDs) Terminate(id string) (bool, error) {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.owner[id]; ok {
		delete(s.owner, id)
		s.dropUserLocked(u)
	}
	return false, nil
}

// withSlot returns ctx carrying sl for the resolver.
func withSlot(ctx context.Context, sl *slot) context.Context {
	return context.WithValue(ctx, slotKey{}, sl)
}
