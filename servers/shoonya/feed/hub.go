package feed

import (
	"context"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// AuthFor looks up a user's Noren session.
type AuthFor func(user string) (*noren.Auth, bool)

// Hub holds one broker socket per user (Noren supports a single socket per
// account) and routes their updates to the Notifier.
type Hub struct {
	ctx     context.Context
	opt     Options
	authFor AuthFor
	notify  *Notifier
	clock   *CoarseClock

	mu      sync.Mutex
	conns   map[string]*Conn
	updates *UpdateLog       // order updates and alert firings (hub_updates.go)
	now     func() time.Time // stamps updates
}

// NewHub makes a hub; sockets live as long as ctx.
func NewHub(ctx context.Context, opt Options, authFor AuthFor, n *Notifier) *Hub {
	return &Hub{ctx: ctx, opt: opt, authFor: authFor, notify: n, conns: map[string]*Conn{},
		clock: NewCoarseClock(time.Millisecond, ctx.Done())}
}

// Conn returns the user's socket, starting it on first use.
func (h *Hub) Conn(user string) *Conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[user]
	if c == nil {
		st := NewStore()
		st.UseClock(h.clock)
		if h.notify != nil {
			st.OnUpdate = func(key string) { h.notify.Updated(user, key) }
		}
		c = NewConn(h.opt, func() (*noren.Auth, bool) { return h.authFor(user) }, st)
		c.Updates = func(frame []byte) { h.takeUpdate(user, frame) }
		h.conns[user] = c
		go c.Run(h.ctx)
	}
	return c
}

// Existing returns the user's socket if one was started.
func (h *Hub) Existing(user string) (*Conn, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.conns[user]
	return c, ok
}

// LoggedIn reconnects a user's socket with the new session.
func (h *Hub) LoggedIn(user string) {
	if c, ok := h.Existing(user); ok {
		c.Kick()
	}
}
