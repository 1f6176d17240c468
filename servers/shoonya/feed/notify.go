package feed

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Resource URIs.
const (
	AllURI       = "shoonya://feed"
	TemplateURI  = "shoonya://feed/{exchange}/{token}"
	instrumentPf = "shoonya://feed/"
)

// InstrumentURI is the resource URI of one instrument's snapshot.
func InstrumentURI(exch, token string) string { return instrumentPf + exch + "/" + token }

// Sender delivers one notifications/resources/updated to one MCP session.
type Sender func(sessionID, uri string) error

// sub is one MCP session's subscription to one URI on behalf of a user.
type sub struct{ session, uri string }

// Notifier tracks resources/subscribe per MCP session (mcp-go v1.2.1 records
// none itself) and sends notifications/resources/updated when a subscribed
// instrument ticks. Updates are coalesced: a burst of ticks on one instrument
// becomes one notification per drain, and the all-instruments URI is
// notified at most every AllEvery.
type Notifier struct {
	send     Sender
	AllEvery time.Duration
	// Relay, when set, tells the other replicas of every tick here (their
	// clients may watch what this replica's broker socket receives).
	Relay func(user, uri string)

	mu      sync.Mutex
	subs    map[string]map[string]string // uri → session → user
	dirty   map[sub]struct{}
	n       atomic.Int64 // number of subscriptions, for the no-subscriber fast path
	wake    chan struct{}
	lastAll map[string]time.Time // session → last all-URI notification
}

// NewNotifier makes a notifier; Run delivers.
func NewNotifier(send Sender) *Notifier {
	return &Notifier{send: send, AllEvery: 250 * time.Millisecond, subs: map[string]map[string]string{},
		dirty: map[sub]struct{}{}, wake: make(chan struct{}, 1), lastAll: map[string]time.Time{}}
}

// Subscribe records that session (acting for user) wants updates of uri.
func (n *Notifier) Subscribe(session, user, uri string) {
	if session == "" {
		return
	}
	n.mu.Lock()
	m := n.subs[uri]
	if m == nil {
		m = map[string]string{}
		n.subs[uri] = m
	}
	if _, ok := m[session]; !ok {
		n.n.Add(1)
	}
	m[session] = user
	n.mu.Unlock()
}

// Unsubscribe removes one subscription.
func (n *Notifier) Unsubscribe(session, uri string) {
	n.mu.Lock()
	if m := n.subs[uri]; m != nil {
		if _, ok := m[session]; ok {
			delete(m, session)
			n.n.Add(-1)
		}
		if len(m) == 0 {
			delete(n.subs, uri)
		}
	}
	n.mu.Unlock()
}

// Forget removes every subscription of a closed session.
func (n *Notifier) Forget(session string) {
	n.mu.Lock()
	for uri, m := range n.subs {
		if _, ok := m[session]; ok {
			delete(m, session)
			n.n.Add(-1)
		}
		if len(m) == 0 {
			delete(n.subs, uri)
		}
	}
	delete(n.lastAll, session)
	n.mu.Unlock()
}

// Subscriptions counts the recorded subscriptions.
func (n *Notifier) Subscriptions() int { return int(n.n.Load()) }

// Updated is called for every merged tick of user's key ("NSE|22").
func (n *Notifier) Updated(user, key string) {
	exch, token, _ := strings.Cut(key, "|")
	if n.Relay != nil {
		n.Relay(user, InstrumentURI(exch, token))
	}
	if n.n.Load() == 0 {
		return
	}
	n.UpdatedURI(user, InstrumentURI(exch, token))
}

// UpdatedURI marks user's instrument uri changed for this replica's
// subscribers (a tick here, or one another replica relayed).
func (n *Notifier) UpdatedURI(user, uri string) {
	if n.n.Load() == 0 {
		return
	}
	n.mu.Lock()
	marked := false
	for s, u := range n.subs[uri] {
		if u == user {
			n.dirty[sub{s, uri}] = struct{}{}
			marked = true
		}
	}
	for s, u := range n.subs[AllURI] {
		if u == user && strings.HasPrefix(uri, instrumentPf) {
			n.dirty[sub{s, AllURI}] = struct{}{}
			marked = true
		}
	}
	n.mu.Unlock()
	if marked {
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
}

// Run delivers until ctx ends.
func (n *Notifier) Run(ctx context.Context) {
	tick := time.NewTicker(n.AllEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		case <-tick.C: // flush throttled all-URI updates
		}
		n.drain()
	}
}

func (n *Notifier) drain() {
	now := time.Now()
	n.mu.Lock()
	if len(n.dirty) == 0 {
		n.mu.Unlock()
		return
	}
	batch := make([]sub, 0, len(n.dirty))
	for s := range n.dirty {
		if s.uri == AllURI {
			if now.Sub(n.lastAll[s.session]) < n.AllEvery {
				continue // stays dirty until the throttle allows
			}
			n.lastAll[s.session] = now
		}
		batch = append(batch, s)
		delete(n.dirty, s)
	}
	n.mu.Unlock()
	for _, s := range batch {
		if err := n.send(s.session, s.uri); err != nil && strings.Contains(err.Error(), "not found") {
			n.Forget(s.session)
		}
	}
}

// ServerSender sends through an mcp-go server.
func ServerSender(s *server.MCPServer) Sender {
	return func(sessionID, uri string) error {
		return s.SendNotificationToSpecificClient(sessionID, mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri})
	}
}
