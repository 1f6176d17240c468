package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// EnvRedirectURL is the OAuth redirect this server receives codes on, e.g.
// http://127.0.0.1:8712/shoonya/callback (it must be registered with Shoonya).
const EnvRedirectURL = "SHOONYA_OAUTH_REDIRECT_URL"

// Callback receives OAuth codes on its own loopback listener, so the user's
// browser finishes the login without the code passing through the model.
// It works on every MCP transport (pkg/serve offers no route hook).
type Callback struct {
	mgr      *Manager
	redirect *url.URL
	ctx      context.Context
	log      zerolog.Logger

	once    sync.Once
	started error
	mu      sync.Mutex
	pending map[string]pending // state → who asked
}

type pending struct {
	user    string
	creds   noren.Credentials
	expires time.Time
}

// NewCallback makes a callback for redirect (must be http on a loopback host).
func NewCallback(ctx context.Context, mgr *Manager, redirect string, log zerolog.Logger) (*Callback, error) {
	u, err := url.Parse(redirect)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("%s must be an http:// loopback URL like http://127.0.0.1:8712/shoonya/callback", EnvRedirectURL)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%s must point at this machine's loopback (127.0.0.1 or localhost), not %q", EnvRedirectURL, u.Hostname())
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return &Callback{mgr: mgr, redirect: u, ctx: ctx, log: log, pending: map[string]pending{}}, nil
}

// Begin registers a login for user and returns the redirect URL and state to
// put in the authorize URL. The listener starts on first use.
func (cb *Callback) Begin(user string, cr noren.Credentials) (redirect, state string, err error) {
	cb.once.Do(func() { cb.started = cb.listen() })
	if cb.started != nil {
		return "", "", envelope.New(envelope.Internal, "the OAuth callback listener could not start on %s; free the port or change %s", cb.redirect.Host, EnvRedirectURL).WithCause(cb.started)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	state = hex.EncodeToString(b)
	cb.mu.Lock()
	now := time.Now()
	for s, p := range cb.pending {
		// A new connect supersedes the user's earlier one, so one user never
		// has two logins pending (a state-less redirect binds to the only one).
		if now.After(p.expires) || p.user == user {
			delete(cb.pending, s)
		}
	}
	cb.pending[state] = pending{user: user, creds: cr, expires: now.Add(10 * time.Minute)}
	cb.mu.Unlock()
	return cb.redirect.String(), state, nil
}

func (cb *Callback) listen() error {
	ln, err := net.Listen("tcp", cb.redirect.Host)
	if err != nil {
		return err
	}
	cb.redirect.Host = ln.Addr().String() // port 0 → the real port
	mux := http.NewServeMux()
	mux.HandleFunc(cb.redirect.Path, cb.serve)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-cb.ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return nil
}

// take finds the pending login a redirect belongs to and removes it. With a
// state it must match. Shoonya's real redirect carries only ?code= (kambalatech
// 0.0.33 getAccessToken; deepak-dhyani8742/Shoonya_oAuthAPI-py auto_login.py), so a
// redirect without state binds to the one login still pending within its 10
// minutes; with several pending (several users) it cannot be told apart and
// is refused (ambiguous = true) rather than guessed.
func (cb *Callback) take(state string) (p pending, ok, ambiguous bool) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	now := time.Now()
	for s, p := range cb.pending {
		if now.After(p.expires) {
			delete(cb.pending, s)
		}
	}
	if state != "" {
		p, ok = cb.pending[state]
		delete(cb.pending, state)
		return p, ok, false
	}
	if len(cb.pending) > 1 {
		return pending{}, false, true
	}
	for s, p := range cb.pending {
		delete(cb.pending, s)
		return p, true, false
	}
	return pending{}, false, false
}

func (cb *Callback) serve(w http.ResponseWriter, r *http.Request) {
	state, code := r.URL.Query().Get("state"), r.URL.Query().Get("code")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if code == "" {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, page("No login code", "This address receives Shoonya's login redirect (?code=...). Ask your assistant to call connect_shoonya_broker."))
		return
	}
	p, ok, ambiguous := cb.take(state)
	if ambiguous {
		w.WriteHeader(http.StatusConflict)
		fmt.Fprint(w, page("Several logins are waiting", "Shoonya's redirect does not say whose login this is. Paste the code from this page's address (code=...) to your assistant as auth_code, or log in again when no one else is logging in."))
		return
	}
	if !ok || time.Now().After(p.expires) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, page("Login link expired or unknown", "Ask your assistant to call connect_shoonya_broker again."))
		return
	}
	ctx, cancel := context.WithTimeout(cb.ctx, 20*time.Second)
	defer cancel()
	if _, err := cb.mgr.LoginOAuth(ctx, p.user, p.creds, code); err != nil {
		cb.log.Warn().Str("user", p.user).Str("code", string(envelope.From(err).Code)).Msg("oauth callback login failed")
		w.WriteHeader(http.StatusBadGateway)
		msg := envelope.From(err).Message
		var e *envelope.Error
		if !errors.As(err, &e) {
			msg = "the login failed"
		}
		fmt.Fprint(w, page("Shoonya login failed", msg))
		return
	}
	cb.log.Info().Str("user", p.user).Msg("oauth login completed through the callback")
	fmt.Fprint(w, page("Connected to Shoonya", "You can close this tab and return to your assistant."))
}

func page(title, body string) string {
	return "<!doctype html><title>" + html.EscapeString(title) + "</title><h1>" + html.EscapeString(title) + "</h1><p>" + html.EscapeString(body) + "</p>"
}
