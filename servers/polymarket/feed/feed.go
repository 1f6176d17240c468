package feed

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/subscriptions"
)

// Resource URIs: every asset a user subscribed, and one market (a
// condition id: both outcomes) or one outcome (a token id).
const (
	AllURI      = "polymarket://feed"
	TemplateURI = "polymarket://feed/market/{id}"
	marketPf    = "polymarket://feed/market/"
)

// MarketURI is the resource of a condition id or a token id.
func MarketURI(id string) string { return marketPf + id }

// MaxPerUser caps one user's subscribed assets.
const MaxPerUser = 100

// Asset is one outcome token to subscribe, with what is known of it.
type Asset struct {
	TokenID, Condition, Outcome string
}

// Feed is the process's live market data: the socket, its store, who
// subscribed what, and the notifier that tells watching clients.
type Feed struct {
	Conn  *Conn
	Store *Store
	N     *subscriptions.Notifier
	// Relay, when set, tells the other replicas of every change here.
	Relay func(user, uri string)
	life  context.Context

	mu    sync.Mutex
	users map[string]map[string]bool // user → token ids
}

// New makes the feed; the socket lives under life (the process's context).
func New(life context.Context, opt Options) *Feed {
	f := &Feed{Store: NewStore(), N: subscriptions.NewNotifier(), life: life, users: map[string]map[string]bool{}}
	f.N.Throttle = func(uri string) bool { return uri == AllURI }
	f.Conn = NewConn(opt, f.Store, f.changed)
	return f
}

// changed tells every user holding asset that its resources changed.
func (f *Feed) changed(asset, market string) {
	f.mu.Lock()
	var holders []string
	for u, as := range f.users {
		if as[asset] {
			holders = append(holders, u)
		}
	}
	f.mu.Unlock()
	uris := []string{MarketURI(asset), AllURI}
	if market != "" {
		uris = append(uris, MarketURI(market))
	}
	for _, u := range holders {
		for _, uri := range uris {
			f.N.Changed(u, uri)
			if f.Relay != nil {
				f.Relay(u, uri)
			}
		}
	}
}

// Subscribe adds assets to user's set and to the socket.
func (f *Feed) Subscribe(user string, assets []Asset) error {
	f.mu.Lock()
	mine := f.users[user]
	if mine == nil {
		mine = map[string]bool{}
	}
	n := len(mine)
	for _, a := range assets {
		if !mine[a.TokenID] {
			n++
		}
	}
	if n > MaxPerUser {
		f.mu.Unlock()
		return fmt.Errorf("%w: at most %d assets per user and %d are subscribed", ErrTooMany, MaxPerUser, len(mine))
	}
	ids := make([]string, 0, len(assets))
	for _, a := range assets {
		ids = append(ids, a.TokenID)
	}
	f.mu.Unlock()
	if err := f.Conn.Add(f.life, ids); err != nil {
		return err
	}
	f.mu.Lock()
	if f.users[user] == nil {
		f.users[user] = mine
	}
	for _, a := range assets {
		f.users[user][a.TokenID] = true
		f.Store.Label(a.TokenID, a.Condition, a.Outcome)
	}
	f.mu.Unlock()
	return nil
}

// Unsubscribe drops assets from user's set ("all" of them when assets is
// empty) and from the socket when no user holds them; it returns what was
// dropped.
func (f *Feed) Unsubscribe(user string, assets []string) []string {
	f.mu.Lock()
	mine := f.users[user]
	if len(assets) == 0 {
		for a := range mine {
			assets = append(assets, a)
		}
	}
	var dropped, orphaned []string
	for _, a := range assets {
		if !mine[a] {
			continue
		}
		delete(mine, a)
		dropped = append(dropped, a)
		held := false
		for _, as := range f.users {
			held = held || as[a]
		}
		if !held {
			orphaned = append(orphaned, a)
		}
	}
	if len(mine) == 0 {
		delete(f.users, user)
	}
	f.mu.Unlock()
	if len(orphaned) > 0 {
		f.Conn.Remove(f.life, orphaned)
	}
	sort.Strings(dropped)
	return dropped
}

// Assets is user's subscribed token ids, sorted.
func (f *Feed) Assets(user string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.users[user]))
	for a := range f.users[user] {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Holds reports whether user subscribed asset.
func (f *Feed) Holds(user, asset string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.users[user][asset]
}

// Quotes is the quote of each of user's assets.
func (f *Feed) Quotes(user string) []Quote {
	out := []Quote{}
	for _, a := range f.Assets(user) {
		if q, ok := f.Store.Get(a); ok {
			out = append(out, q)
		}
	}
	return out
}

// Lookup is what a market resource shows user: the outcome a token id
// names, or every subscribed outcome of a condition id.
func (f *Feed) Lookup(user, id string) []Quote {
	if strings.HasPrefix(id, "0x") {
		var out []Quote
		for _, q := range f.Store.ByMarket(id) {
			if f.Holds(user, q.AssetID) {
				out = append(out, q)
			}
		}
		return out
	}
	if !f.Holds(user, id) {
		return nil
	}
	if q, ok := f.Store.Get(id); ok {
		return []Quote{q}
	}
	return nil
}

// ParseURI reads a market resource's id: a token id (decimal) or a
// lowercase condition id (0x + 64 hex, as the socket names markets).
func ParseURI(uri string) (id string, ok bool) {
	id, found := strings.CutPrefix(uri, marketPf)
	if !found || id == "" {
		return "", false
	}
	return id, isToken(id) || isCondition(id)
}

func isToken(s string) bool {
	if len(s) < 10 || len(s) > 90 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isCondition(s string) bool {
	if len(s) != 66 || !strings.HasPrefix(s, "0x") {
		return false
	}
	for _, r := range s[2:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
