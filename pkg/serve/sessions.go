package serve

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"
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

	// With Redis, shared holds ids, owners and counts for all replicas, and
	// owner, perUser and reserved stay empty; local is the ids mcp-go holds
	// state for on this replica (initialized here, or adopted: see rpcGate).
	shared *sharedSessions
	local  map[string]struct{}
	flight singleflight.Group // one adoption per id at a time
	log    zerolog.Logger
}

func newSessions(max, maxPerUser int) *sessions {
	return &sessions{owner: map[string]string{}, perUser: map[string]int{}, max: max, maxPerUser: maxPerUser}
}

// newSharedSessions keeps sessions in Redis; ttl is the idle expiry.
func newSharedSessions(rdb *redis.Client, ttl time.Duration, max, maxPerUser int, log zerolog.Logger) *sessions {
	s := newSessions(max, maxPerUser)
	s.shared = &sharedSessions{rdb: rdb, ttl: ttl, max: max, maxPerUser: maxPerUser, memo: newSessionMemo(rdb, ttl, log)}
	s.local = map[string]struct{}{}
	s.log = log
	return s
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
	id    string // with Redis: minted and recorded by reserve
	bound bool
}

type slotKey struct{}

// reserve takes a slot for a new session of user; init is the initialize
// params, kept with a shared session so another replica can adopt it.
func (s *sessions) reserve(ctx context.Context, user string, init []byte) (*slot, error) {
	if s.shared != nil {
		id, err := s.shared.reserve(ctx, user, init)
		if err != nil {
			return nil, s.storeErr(err)
		}
		return &slot{s: s, user: user, id: id}, nil
	}
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
	if s.shared != nil {
		s.mu.Lock()
		unused := !sl.bound
		sl.bound = true
		s.mu.Unlock()
		if unused {
			// The request's context may be gone: the id must still go.
			if err := s.shared.terminate(context.Background(), sl.id); err != nil {
				s.log.Warn().Err(err).Msg("could not release an unused session slot; it expires after the idle TTL")
			}
		}
		return
	}
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

// lookup returns the owner of a live id (refreshing its idle TTL in Redis),
// and with Redis the initialize params it was created with.
func (s *sessions) lookup(ctx context.Context, id string) (owner string, init []byte, ok bool, err error) {
	if s.shared != nil {
		// This replica holds the session's state already: only the owner is
		// needed, and it may come from the memo.
		local := s.isLocal(id)
		var t memoTicket
		if local {
			if owner, ok := s.shared.memo.get(id); ok {
				return owner, nil, true, nil
			}
			t = s.shared.memo.ticket()
		}
		owner, init, ok, err = s.shared.touch(ctx, id, !local)
		if err != nil {
			return "", nil, false, s.storeErr(err)
		}
		if ok && local {
			s.shared.memo.put(t, id, owner)
		}
		return owner, init, ok, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	owner, ok = s.owner[id]
	return owner, nil, ok, nil
}

// leave takes this replica out of the shared session memo once it stopped
// serving, so DELETEs on other replicas stop waiting for it at once rather
// than when its lease runs out.
func (s *sessions) leave() {
	if s.shared != nil {
		s.shared.memo.leave()
	}
}

// isLocal: mcp-go on this replica holds state for id (shared mode).
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

// sessionIDs is the manager for one request: Generate binds its reserved slot.
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

const sessionPrefix = "mcp-session-"

var errUnknownSession = errors.New("session not found")

// Generate returns a random id (130 bits, visible ASCII) bound to the request's slot.
func (m sessionIDs) Generate() string {
	s := m.s
	if s.shared != nil {
		return m.generateShared()
	}
	id := sessionPrefix + rand.Text()
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

// Terminate forgets id (DELETE, or idle expiry). Ownership was checked by the gate.
func (m sessionIDs) Terminate(id string) (bool, error) {
	s := m.s
	if s.shared != nil {
		return m.terminateShared(id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.owner[id]; ok {
		delete(s.owner, id)
		s.dropUserLocked(u)
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

// generateShared returns the id reserve recorded in Redis for this request's
// slot, or the id being adopted, and marks it held on this replica.
func (m sessionIDs) generateShared() string {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var id string
	switch {
	case m.adopt != "":
		id = m.adopt
	case m.slot != nil && !m.slot.bound:
		m.slot.bound = true
		id = m.slot.id
	default:
		// No slot: a path that does not pass the gate. The id is recorded
		// nowhere, so it never validates: a 404, never a session past the caps.
		return sessionPrefix + rand.Text()
	}
	s.local[id] = struct{}{}
	return id
}

// terminateShared: a DELETE ends the session for every replica; mcp-go's
// sweeper and CloseSessions only drop this replica's state, since another
// replica may be serving the session (Redis' TTL is its idle expiry).
func (m sessionIDs) terminateShared(id string) (bool, error) {
	s := m.s
	s.mu.Lock()
	delete(s.local, id)
	s.mu.Unlock()
	if !m.request {
		s.shared.memo.forget(id)
		return false, nil
	}
	if err := s.shared.terminate(context.Background(), id); err != nil {
		return false, s.storeErr(err)
	}
	// Deleted in Redis; the DELETE is answered once no replica's memo can
	// still answer for it.
	if err := s.shared.memo.broadcastEnded(context.Background(), id); err != nil {
		s.log.Warn().Err(err).Msg("a session ended, but not every replica confirmed it; their memos stop within " + leaseTTL.String())
	}
	return false, nil
}
