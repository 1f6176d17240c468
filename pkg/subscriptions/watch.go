// Package subscriptions serves resource subscriptions in both protocol eras
// (2025-11-25 resources/subscribe, 2026-07-28 subscriptions/listen) on an
// mcp-go server, and carries resource updates between replicas through Redis.
// The server says which URIs can be watched and keeps the subscribers; this
// package turns that into hooks, refusals and notifications.
package subscriptions

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Watch is what a server tells Serve about the resources a client can
// watch. Subscribers are keys: a 2025-11-25 session id (resources/subscribe),
// or one per 2026-07-28 subscriptions/listen stream.
type Watch struct {
	// Check refuses a URI no client can watch; its error is what the client
	// reads, so it names the URIs that can be watched.
	Check func(uri string) error
	// Subscribe records that key, acting for user, watches uri.
	Subscribe func(key, user, uri string)
	// Unsubscribe drops one subscription; Forget every one of key.
	Unsubscribe func(key, uri string)
	Forget      func(key string)
}

// Serve serves resource subscriptions in both protocol eras on s for the
// resources w accepts: it advertises resources.subscribe, refuses
// resources/subscribe and subscriptions/listen for URIs w.Check refuses
// before anything is acknowledged, records the others through w (user names
// the caller of a request), and returns the function that sends
// notifications/resources/updated to a subscriber key.
//
// mcp-go v1.2.1 acknowledges subscriptions/listen but delivers
// resources/updated only to sessions that keep their own subscription store,
// which none of its sessions do; Serve therefore tracks listen streams itself
// and writes to the stream's session.
func Serve(s *server.MCPServer, w Watch, user func(context.Context) string) (notify func(key, uri string) error) {
	server.WithResourceCapabilities(true, false)(s) // resources are added at start only: no listChanged
	hooks := s.GetHooks()
	if hooks == nil { // a server made without hooks
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(s)
	}
	l := &listeners{byKey: map[string]listener{}}

	hooks.AddOnRequestInitialization(func(_ context.Context, _ any, message any) error {
		raw, ok := message.(json.RawMessage)
		if !ok {
			return nil
		}
		_, uris := watchedURIs(raw)
		for _, uri := range uris {
			if err := w.Check(uri); err != nil {
				return fmt.Errorf("cannot watch %s: %w", strconv.Quote(uri), err)
			}
		}
		return nil
	})
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if cs := server.ClientSessionFromContext(ctx); cs != nil && cs.SessionID() != "" {
			w.Subscribe(cs.SessionID(), user(ctx), req.Params.URI)
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if cs := server.ClientSessionFromContext(ctx); cs != nil {
			w.Unsubscribe(cs.SessionID(), req.Params.URI)
		}
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		w.Forget(cs.SessionID())
	})
	hooks.AddBeforeSubscriptionsListen(func(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
		uris := req.Params.Notifications.ResourceSubscriptions
		cs := server.ClientSessionFromContext(ctx)
		if len(uris) == 0 || cs == nil {
			return
		}
		key := l.add(cs, id)
		for _, uri := range uris {
			w.Subscribe(key, user(ctx), uri)
		}
		// The stream lasts as long as the request: the client closing it
		// (HTTP) or cancelling it (stdio) ends the subscriptions.
		go func() {
			<-ctx.Done()
			l.remove(key)
			w.Forget(key)
		}()
	})

	return func(key, uri string) error {
		if ln, ok := l.get(key); ok {
			return ln.send(uri)
		}
		return s.SendNotificationToSpecificClient(key, string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": uri})
	}
}

// RefuseAll refuses every subscription on s, a server with no resource to
// watch (mcp-go acknowledges resources/subscribe whatever the advertised
// capabilities; subscriptions/listen it narrows to them itself).
func RefuseAll(s *server.MCPServer) {
	s.GetHooks().AddOnRequestInitialization(func(_ context.Context, _ any, message any) error {
		if raw, ok := message.(json.RawMessage); ok {
			if method, _ := watchedURIs(raw); method == string(mcp.MethodResourcesSubscribe) {
				return fmt.Errorf("this server has no resource to subscribe to (it does not advertise resources.subscribe)")
			}
		}
		return nil
	})
}

// watchedURIs returns a message's method and the URIs it asks to watch, if
// it is resources/subscribe or subscriptions/listen.
func watchedURIs(raw json.RawMessage) (method string, uris []string) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			URI           string `json:"uri"`
			Notifications struct {
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			} `json:"notifications"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return "", nil
	}
	switch m.Method {
	case string(mcp.MethodResourcesSubscribe):
		return m.Method, []string{m.Params.URI}
	case string(mcp.MethodSubscriptionsListen):
		return m.Method, m.Params.Notifications.ResourceSubscriptions
	}
	return m.Method, nil
}

// listener is one open subscriptions/listen stream: the session serving it
// and the request id every message on it carries.
type listener struct {
	session server.ClientSession
	id      any
}

// send writes one resources/updated on the stream. Nothing is sent before
// mcp-go has recorded the stream's filter, which it does just before its
// acknowledgement (the spec's first message on the stream); a full channel
// drops the update, as the next one for the URI says the same.
func (ln listener) send(uri string) error {
	if f, ok := ln.session.(server.SessionWithSubscriptionFilter); ok {
		if _, active := f.SubscriptionFilter(); !active {
			return nil
		}
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationResourceUpdated),
		Params: mcp.NotificationParams{
			Meta:             map[string]any{mcp.MetaKeySubscriptionID: ln.id},
			AdditionalFields: map[string]any{"uri": uri},
		},
	}}
	select {
	case ln.session.NotificationChannel() <- n:
	default:
	}
	return nil
}

type listeners struct {
	n     atomic.Int64
	mu    sync.Mutex
	byKey map[string]listener
}

func (l *listeners) add(cs server.ClientSession, id any) string {
	key := "listen/" + strconv.FormatInt(l.n.Add(1), 10)
	l.mu.Lock()
	l.byKey[key] = listener{cs, id}
	l.mu.Unlock()
	return key
}

func (l *listeners) get(key string) (listener, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ln, ok := l.byKey[key]
	return ln, ok
}

func (l *listeners) remove(key string) {
	l.mu.Lock()
	delete(l.byKey, key)
	l.mu.Unlock()
}
