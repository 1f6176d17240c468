package serve

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"
)

// sessionStore keeps legacy (2025-11-25) streamable-HTTP sessions: who owns
// each id, within the caps. memoryStore serves one process; redisStore
// (sessions_redis.go) is shared by replicas. Every request with a session id
// is one lookup in it: nothing is cached beside it, so a session ended on any
// replica is unknown to every replica from then on.
type sessionStore interface {
	// reserve mints an id and records it for user, within the caps; init is
	// the initialize params, kept so another replica can adopt the session.
	reserve(ctx context.Context, user string, init []byte) (id string, err error)
	// lookup returns a live id's owner and init params (keeping it alive in
	// Redis); ok is false for an unknown, expired or ended id.
	lookup(ctx context.Context, id string) (owner string, init []byte, ok bool, err error)
	// end forgets id.
	end(ctx context.Context, id string) error
}

// sessions is mcp-go's session id manager (through a resolver, which sees the
// request and so the bearer user) over a sessionStore. mcp-go's idle sweeper
// (WithSessionIdleTTL) expires idle sessions through Terminate, which also
// frees what mcp-go holds for them (clientInfo, capabilities).
//
// A new session's id is reserved before mcp-go sees the initialize (or the GET
// that opens a stream without a session id): a full store is a clear error
// instead of unbounded memory. 2026-07-28 clients have no sessions.
type sessions struct {
	store  sessionStore
	shared bool // the store is Redis: other replicas serve the same sessions
	log    zerolog.Logger

	mu     sync.Mutex
	local  map[string]struct{} // shared: ids mcp-go holds state for on this replica
	flight singleflight.Group  // one adoption per id at a time
}

func newSessions(store sessionStore, shared bool, log zerolog.Logger) *sessions {
	return &sessions{store: store, shared: shared, log: log, local: map[string]struct{}{}}
}

// errTooManySessions carries the HTTP status of a refused new session.
type errTooManySessions struct {
	status int
	msg    string
}

func (e *errTooManySessions) Error() string { return e.msg }

func tooManyForUser(max int) error {
	return &errTooManySessions{http.StatusTooManyRequests, fmt.Sprintf(
		"too many open sessions for this user (at most %d): end unused ones with DELETE, or wait for idle ones to expire", max)}
}

func tooManyInTotal(max int) error {
	return &errTooManySessions{http.StatusServiceUnavailable, fmt.Sprintf(
		"the server holds its maximum of %d sessions; retry later, or use protocol 2026-07-28 (no sessions)", max)}
}

// errSessionStore is what a client sees when Redis does not answer: the
// address and the cause go to the log, not to the client.
var errSessionStore = &errTooManySessions{http.StatusServiceUnavailable,
	"the session store (Redis) is not answering; retry shortly, or use protocol 2026-07-28 (no sessions)"}

const sessionPrefix = "mcp-session-"

func newSessionID() string { return sessionPrefix + rand.Text() } // 130 bits, visible ASCII

// slot is a reserved id for one new session, handed to mcp-go by Generate,
// or ended when the request finishes without using it.
type slot struct {
	s    *sessions
	id   string
	used bool // guarded by s.mu
}

type slotKey struct{}

// reserve takes a slot for a new session of user.
func (s *sessions) reserve(ctx context.Context, user string, init []byte) (*slot, error) {
	id, err := s.store.reserve(ctx, user, init)
	if err != nil {
		return nil, s.storeErr(err)
	}
	return &slot{s: s, id: id}, nil
}

// release ends the slot's id if mcp-go did not use it (the request failed first).
func (sl *slot) release() {
	s := sl.s
	s.mu.Lock()
	unused := !sl.used
	sl.used = true
	s.mu.Unlock()
	if unused {
		// The request's context may be gone: the id must still go.
		if err := s.store.end(context.Background(), sl.id); err != nil {
			s.log.Warn().Err(err).Msg("could not release an unused session slot; it expires after the idle TTL")
		}
	}
}

// storeErr turns a Redis failure into the client's clear 503 (the cause goes
// to the log); cap refusals pass through.
func (s *sessions) storeErr(err error) error {
	var tm *errTooManySessions
	if errors.As(err, &tm) {
		return err
	}
	s.log.Error().Err(err).Msg("session store (Redis) failed")
	return errSessionStore
}

// lookup returns the owner of a live id and its initialize params.
func (s *sessions) lookup(ctx context.Context, id string) (owner string, init []byte, ok bool, err error) {
	owner, init, ok, err = s.store.lookup(ctx, id)
	if err != nil {
		return "", nil, false, s.storeErr(err)
	}
	return owner, init, ok, nil
}

// isLocal: mcp-go on this replica holds state for id (shared store).
func (s *sessions) isLocal(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.local[id]
	return ok
}

// ResolveSessionIdManager implements server.SessionIdManagerResolver. r is nil
// when mcp-go's sweeper expires a session.
func (s *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r == nil {
		return sessionIDs{s: s}
	}
	m := sessionIDs{s: s, request: true}
	m.slot, _ = r.Context().Value(slotKey{}).(*slot)
	m.checked, _ = r.Context().Value(checkedKey{}).(checkedID)
	m.adopt, _ = r.Context().Value(adoptKey{}).(string)
	return m
}

// sessionIDs is the manager for one request: Generate hands out its slot.
type sessionIDs struct {
	s       *sessions
	slot    *slot
	request bool      // false: mcp-go's sweeper or CloseSessions (this replica only)
	checked checkedID // the gate's lookup of the request's id, reused by Validate
	adopt   string    // an id this replica adopts: Generate returns it
}

// checkedID is the gate's answer for the request's session id.
type checkedID struct {
	id   string
	live bool
}

type checkedKey struct{}

// adoptKey marks the initialize the gate replays to adopt a foreign session.
type adoptKey struct{}

var errUnknownSession = errors.New("session not found")

// Generate returns the id reserved for this request (or the one adopted), and
// marks it held on this replica.
func (m sessionIDs) Generate() string {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var id string
	switch {
	case m.adopt != "":
		id = m.adopt
	case m.slot != nil && !m.slot.used:
		m.slot.used = true
		id = m.slot.id
	default:
		// No slot: a path that does not pass the gate. The id is recorded
		// nowhere, so it never validates: a 404, never a session past the caps.
		return newSessionID()
	}
	s.local[id] = struct{}{}
	return id
}

// Validate: unknown and terminated ids are errors (mcp-go answers 404).
func (m sessionIDs) Validate(id string) (bool, error) {
	live := m.checked.live
	if m.checked.id != id || id == "" {
		var err error
		if _, _, live, err = m.s.lookup(context.Background(), id); err != nil {
			return false, err
		}
	}
	if !live {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate forgets id. A DELETE (ownership checked by the gate) ends it for
// every replica; mcp-go's sweeper and CloseSessions end it in memory, but with
// Redis only drop this replica's state, since another replica may be serving
// the session (Redis' TTL is its idle expiry).
func (m sessionIDs) Terminate(id string) (bool, error) {
	s := m.s
	s.mu.Lock()
	delete(s.local, id)
	s.mu.Unlock()
	if s.shared && !m.request {
		return false, nil
	}
	if err := s.store.end(context.Background(), id); err != nil {
		return false, s.storeErr(err)
	}
	return false, nil
}

func withAdopt(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, adoptKey{}, id)
}

// withSlot returns ctx carrying sl for the resolver.
func withSlot(ctx context.Context, sl *slot) context.Context {
	return context.WithValue(ctx, slotKey{}, sl)
}

// memoryStore is the sessionStore of a single process.
type memoryStore struct {
	mu         sync.Mutex
	owner      map[string]string // session id -> user
	perUser    map[string]int    // user -> sessions held
	max        int
	maxPerUser int
}

func newMemoryStore(max, maxPerUser int) *memoryStore {
	return &memoryStore{owner: map[string]string{}, perUser: map[string]int{}, max: max, maxPerUser: maxPerUser}
}

func (m *memoryStore) reserve(_ context.Context, user string, _ []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.perUser[user] >= m.maxPerUser {
		return "", tooManyForUser(m.maxPerUser)
	}
	if len(m.owner) >= m.max {
		return "", tooManyInTotal(m.max)
	}
	id := newSessionID()
	m.owner[id] = user
	m.perUser[user]++
	return id, nil
}

// lookup: in one process every live session is held by mcp-go here, so the
// initialize params are never needed.
func (m *memoryStore) lookup(_ context.Context, id string) (string, []byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	owner, ok := m.owner[id]
	return owner, nil, ok, nil
}

func (m *memoryStore) end(_ context.Context, id string) error {
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
