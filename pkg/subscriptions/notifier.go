package subscriptions

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Notifier keeps the subscribers Serve reports (its Subscribe, Unsubscribe
// and Forget are a Watch's; mcp-go v1.2.1 records none itself) and sends
// notifications/resources/updated when a user's resource changes. Updates
// are coalesced: a burst of changes to one URI is one notification per
// drain, and a URI Throttle picks (a combined feed) is notified at most
// every Every per subscriber.
type Notifier struct {
	// Every is the throttle of the URIs Throttle picks; 0 → 250 ms.
	Every time.Duration
	// Throttle picks the URIs notified at most every Every; nil picks none.
	Throttle func(uri string) bool

	send    atomic.Pointer[func(key, uri string) error]
	mu      sync.Mutex
	subs    map[string]map[string]string // uri → key → user
	dirty   map[[2]string]struct{}       // {key, uri}
	n       atomic.Int64                 // subscriptions, for the no-subscriber fast path
	wake    chan struct{}
	lastAll map[[2]string]time.Time
}

// NewNotifier makes a notifier; SetSender gives it Serve's notify, Run delivers.
func NewNotifier() *Notifier {
	return &Notifier{subs: map[string]map[string]string{}, dirty: map[[2]string]struct{}{},
		wake: make(chan struct{}, 1), lastAll: map[[2]string]time.Time{}}
}

// Watch is the Watch that records subscribers here, refusing what check refuses.
func (n *Notifier) Watch(check func(uri string) error) Watch {
	return Watch{Check: check, Subscribe: n.Subscribe, Unsubscribe: n.Unsubscribe, Forget: n.Forget}
}

// SetSender sets what delivers one notification to one subscriber key.
func (n *Notifier) SetSender(send func(key, uri string) error) { n.send.Store(&send) }

// Subscribe records that key (acting for user) watches uri.
func (n *Notifier) Subscribe(key, user, uri string) {
	if key == "" {
		return
	}
	n.mu.Lock()
	m := n.subs[uri]
	if m == nil {
		m = map[string]string{}
		n.subs[uri] = m
	}
	if _, ok := m[key]; !ok {
		n.n.Add(1)
	}
	m[key] = user
	n.mu.Unlock()
}

// Unsubscribe drops one subscription.
func (n *Notifier) Unsubscribe(key, uri string) {
	n.mu.Lock()
	n.drop(key, uri)
	n.mu.Unlock()
}

// Forget drops every subscription of key (a closed session or stream).
func (n *Notifier) Forget(key string) {
	n.mu.Lock()
	for uri := range n.subs {
		n.drop(key, uri)
	}
	for k := range n.lastAll {
		if k[0] == key {
			delete(n.lastAll, k)
		}
	}
	n.mu.Unlock()
}

func (n *Notifier) drop(key, uri string) {
	m := n.subs[uri]
	if _, ok := m[key]; ok {
		delete(m, key)
		n.n.Add(-1)
	}
	if len(m) == 0 {
		delete(n.subs, uri)
	}
}

// Subscriptions counts the recorded subscriptions.
func (n *Notifier) Subscriptions() int { return int(n.n.Load()) }

// Changed marks user's uri changed for its subscribers here (a change this
// replica saw, or one Share brought from another).
func (n *Notifier) Changed(user, uri string) {
	if n.n.Load() == 0 {
		return
	}
	n.mu.Lock()
	marked := false
	for key, u := range n.subs[uri] {
		if u == user {
			n.dirty[[2]string{key, uri}] = struct{}{}
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
	every := n.every()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		case <-tick.C: // flush throttled updates
		}
		n.drain(every)
	}
}

func (n *Notifier) every() time.Duration {
	if n.Every <= 0 {
		return 250 * time.Millisecond
	}
	return n.Every
}

func (n *Notifier) drain(every time.Duration) {
	sendp := n.send.Load()
	now := time.Now()
	n.mu.Lock()
	if len(n.dirty) == 0 || sendp == nil {
		n.mu.Unlock()
		return
	}
	batch := make([][2]string, 0, len(n.dirty))
	for k := range n.dirty {
		if n.Throttle != nil && n.Throttle(k[1]) {
			if now.Sub(n.lastAll[k]) < every {
				continue // stays dirty until the throttle allows
			}
			n.lastAll[k] = now
		}
		batch = append(batch, k)
		delete(n.dirty, k)
	}
	n.mu.Unlock()
	for _, k := range batch {
		if err := (*sendp)(k[0], k[1]); err != nil && strings.Contains(err.Error(), "not found") {
			n.Forget(k[0]) // mcp-go: the session is gone
		}
	}
}
