package sessions

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"
)

// Manager is mcp-go's session id manager (through a resolver, which sees the
// request and so the bearer user) over a Store. mcp-go's idle sweeper
// (WithSessionIdleTTL) expires idle sessions through Terminate, which also
// frees what mcp-go holds for them (clientInfo, capabilities).
//
// A new session's id is reserved before mcp-go sees the initialize (or the GET
// that opens a stream without a session id): a full store is a clear error
// instead of unbounded memory.
type Manager struct {
	store  Store
	shared bool // the store is Redis: other replicas serve the same sessions
	log    zerolog.Logger

	mu      sync.Mutex
	local   map[string]struct{} // shared: ids mcp-go holds state for on this replica
	flight  singleflight.Group  // one adoption per id at a time
	streams *getStreams         // this replica's open GET streams (EndStreams)
}

// NewManager serves sessions from store; log takes store failures.
func NewManager(store Store, log zerolog.Logger) *Manager {
	_, shared := store.(*redisStore)
	return &Manager{store: store, shared: shared, log: log, local: map[string]struct{}{},
		streams: &getStreams{byID: map[string]map[*context.CancelFunc]struct{}{}}}
}

// ErrNotOwner: the session id is live but belongs to another bearer user. The
// client is answered 404, as for an unknown id.
var ErrNotOwner = errors.New("session of another user")

// ErrUnknown: no live session has the id (it ended, expired or never was).
// GET and DELETE are answered 404 for it (MCP Session Management); a POST
// goes on, so that initialize (which ignores the header) still works and
// Validate answers 404 to anything else.
var ErrUnknown = errors.New("unknown session")

// Check looks up the request's session id sid for user before mcp-go sees the
// request. The returned request carries the answer, which Validate reuses
// instead of asking the store again; a live session this replica never saw is
// adopted first (adopt.go), through next. An error is ErrNotOwner,
// ErrUnknown (the returned request still carries the answer) or a *Refusal.
func (m *Manager) Check(r *http.Request, user, sid string, next http.Handler) (*http.Request, error) {
	owner, init, ok, err := m.store.Lookup(r.Context(), sid)
	if err != nil {
		return r, m.storeErr(err)
	}
	if ok && owner != user {
		return r, ErrNotOwner
	}
	r = r.WithContext(context.WithValue(r.Context(), checkedKey{}, checkedID{sid, ok}))
	if !ok {
		return r, ErrUnknown
	}
	if m.shared && r.Method != http.MethodDelete && !m.isLocal(sid) {
		m.adopt(r, sid, init, next)
	}
	return r, nil
}

// Reserve takes an id for a new session of user (init: its initialize
// params), within the caps. mcp-go's Generate hands it out for the returned
// request; release ends it if the request finishes without using it. An
// error is a *Refusal.
func (m *Manager) Reserve(r *http.Request, user string, init []byte) (_ *http.Request, release func(), err error) {
	id, err := m.store.Reserve(r.Context(), user, init)
	if err != nil {
		return r, nil, m.storeErr(err)
	}
	sl := &slot{m: m, id: id}
	return r.WithContext(context.WithValue(r.Context(), slotKey{}, sl)), sl.release, nil
}

// slot is a reserved id for one new session, handed to mcp-go by Generate,
// or ended when the request finishes without using it.
type slot struct {
	m    *Manager
	id   string
	used bool // guarded by m.mu
}

type slotKey struct{}

// release ends the slot's id if mcp-go did not use it (the request failed first).
func (sl *slot) release() {
	m := sl.m
	m.mu.Lock()
	unused := !sl.used
	sl.used = true
	m.mu.Unlock()
	if unused {
		// The request's context may be gone: the id must still go.
		if err := m.store.End(context.Background(), sl.id); err != nil {
			m.log.Warn().Err(err).Msg("could not release an unused session slot; it expires after the idle TTL")
		}
	}
}

// storeErr turns a Redis failure into the client's clear 503 (the cause goes
// to the log); cap refusals pass through.
func (m *Manager) storeErr(err error) error {
	var rf *Refusal
	if errors.As(err, &rf) {
		return err
	}
	m.log.Error().Err(err).Msg("session store (Redis) failed")
	return ErrStore
}

// isLocal: mcp-go on this replica holds state for id (shared store).
func (m *Manager) isLocal(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.local[id]
	return ok
}

// ResolveSessionIdManager implements server.SessionIdManagerResolver. r is nil
// when mcp-go's sweeper expires a session.
func (m *Manager) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r == nil {
		return sessionIDs{m: m}
	}
	ids := sessionIDs{m: m, request: true}
	ids.slot, _ = r.Context().Value(slotKey{}).(*slot)
	ids.checked, _ = r.Context().Value(checkedKey{}).(checkedID)
	ids.adopt, _ = r.Context().Value(adoptKey{}).(string)
	return ids
}

// sessionIDs is the manager for one request: Generate hands out its slot.
type sessionIDs struct {
	m       *Manager
	slot    *slot
	request bool      // false: mcp-go's sweeper or CloseSessions (this replica only)
	checked checkedID // Check's lookup of the request's id, reused by Validate
	adopt   string    // an id this replica adopts: Generate returns it
}

// checkedID is Check's answer for the request's session id.
type checkedID struct {
	id   string
	live bool
}

type checkedKey struct{}

var errUnknownSession = errors.New("session not found")

// Generate returns the id reserved for this request (or the one adopted), and
// marks it held on this replica.
func (ids sessionIDs) Generate() string {
	m := ids.m
	m.mu.Lock()
	defer m.mu.Unlock()
	var id string
	switch {
	case ids.adopt != "":
		id = ids.adopt
	case ids.slot != nil && !ids.slot.used:
		ids.slot.used = true
		id = ids.slot.id
	default:
		// No slot: a path that does not pass the gate. The id is recorded
		// nowhere, so it never validates: a 404, never a session past the caps.
		return newID()
	}
	m.local[id] = struct{}{}
	return id
}

// Validate: unknown and terminated ids are errors (mcp-go answers 404).
func (ids sessionIDs) Validate(id string) (bool, error) {
	live := ids.checked.live
	if ids.checked.id != id || id == "" {
		var err error
		if _, _, live, err = ids.m.store.Lookup(context.Background(), id); err != nil {
			return false, ids.m.storeErr(err)
		}
	}
	if !live {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate forgets id and closes its GET streams on this replica. A DELETE
// (ownership checked by Check) ends it for every replica; mcp-go's sweeper
// and CloseSessions end it in memory, but with Redis only drop this
// replica's state, since another replica may be serving the session (Redis'
// TTL is its idle expiry).
func (ids sessionIDs) Terminate(id string) (bool, error) {
	m := ids.m
	m.mu.Lock()
	delete(m.local, id)
	m.mu.Unlock()
	// The streams end after the store forgets the id: a client that sees its
	// stream close and sends again must be answered 404, not served.
	defer m.streams.end(id)
	if m.shared && !ids.request {
		return false, nil
	}
	if err := m.store.End(context.Background(), id); err != nil {
		return false, m.storeErr(err)
	}
	return false, nil
}
