// Package session keeps each user's Noren login, keyed by serve.UserID(ctx)
// (the process on stdio, the bearer token's user on HTTP), never by the MCP
// session id: 2026-07-28 clients have none, and a broker login belongs to a
// person, not to a connection.
package session

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// Env names of the credentials.
const (
	EnvUserID       = "SHOONYA_USER_ID"
	EnvPassword     = "SHOONYA_PASSWORD"
	EnvTOTPSecret   = "SHOONYA_TOTP_SECRET"
	EnvVendorCode   = "SHOONYA_VENDOR_CODE"
	EnvAPISecret    = "SHOONYA_API_SECRET"
	EnvIMEI         = "SHOONYA_IMEI"
	EnvClientID     = "SHOONYA_CLIENT_ID"
	EnvClientSecret = "SHOONYA_CLIENT_SECRET"
)

// CredentialsFromEnv reads the credentials every user starts from.
func CredentialsFromEnv() noren.Credentials {
	g := func(k string) string { return strings.TrimSpace(os.Getenv(k)) }
	return noren.Credentials{
		UID: g(EnvUserID), Password: g(EnvPassword), TOTPSecret: g(EnvTOTPSecret), VendorCode: g(EnvVendorCode),
		APISecret: g(EnvAPISecret), IMEI: g(EnvIMEI), ClientID: g(EnvClientID), ClientSecret: g(EnvClientSecret),
	}
}

// state is one user's login.
type state struct {
	login sync.Mutex // one re-login at a time: a second QuickAuth could invalidate the first's token
	mu    sync.Mutex
	auth  *noren.Auth
	creds noren.Credentials // what the last successful connect used (for re-login)
	at    time.Time
}

// Manager holds every user's login.
type Manager struct {
	Client *noren.Client
	Env    noren.Credentials // defaults from the environment
	Now    func() time.Time

	mu    sync.Mutex
	users map[string]*state
	// OnLogin is told when a user (re)logs in, e.g. to restart the feed.
	OnLogin func(user string, a noren.Auth)
}

// NewManager makes a manager.
func NewManager(c *noren.Client, env noren.Credentials) *Manager {
	return &Manager{Client: c, Env: env, Now: time.Now, users: map[string]*state{}}
}

func (m *Manager) user(id string) *state {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.users[id]
	if s == nil {
		s = &state{}
		m.users[id] = s
	}
	return s
}

// Era is the configured login generation.
func (m *Manager) Era() noren.Era { return m.Client.Config().Era }

// Auth returns the caller's session or an unauthenticated error naming the fix.
func (m *Manager) Auth(ctx context.Context) (*noren.Auth, error) {
	s := m.user(serve.UserID(ctx))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.auth == nil {
		return nil, envelope.New(envelope.Unauthenticated, "not logged in to Shoonya; call connect_shoonya_broker first")
	}
	a := *s.auth
	return &a, nil
}

// AuthFor returns a user's session without a request context (the feed).
func (m *Manager) AuthFor(user string) (*noren.Auth, bool) {
	s := m.user(user)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.auth == nil {
		return nil, false
	}
	a := *s.auth
	return &a, true
}

// set records a login.
func (m *Manager) set(user string, a *noren.Auth, cr noren.Credentials) {
	s := m.user(user)
	s.mu.Lock()
	s.auth, s.creds, s.at = a, cr, m.Now()
	s.mu.Unlock()
	if m.OnLogin != nil {
		m.OnLogin(user, *a)
	}
}

// Logout forgets the caller's session.
func (m *Manager) Logout(ctx context.Context) {
	s := m.user(serve.UserID(ctx))
	s.mu.Lock()
	s.auth = nil
	s.mu.Unlock()
}

// LoginLegacy runs QuickAuth with cr; factor2 empty → TOTP from cr.TOTPSecret.
func (m *Manager) LoginLegacy(ctx context.Context, cr noren.Credentials, factor2 string) (*noren.Auth, error) {
	if err := missing(cr, factor2); err != nil {
		return nil, err
	}
	if factor2 == "" {
		var err error
		if factor2, err = noren.TOTP(cr.TOTPSecret, m.Now()); err != nil {
			return nil, err
		}
	}
	a, err := m.Client.QuickAuth(ctx, cr, factor2)
	if err != nil {
		return nil, err
	}
	m.set(serve.UserID(ctx), a, cr)
	return a, nil
}

// LoginOAuth exchanges an authorization code.
func (m *Manager) LoginOAuth(ctx context.Context, user string, cr noren.Credentials, code string) (*noren.Auth, error) {
	if cr.UID == "" {
		return nil, envelope.Invalid("user_id", "set %s or pass user_id", EnvUserID)
	}
	if cr.ClientSecret == "" {
		return nil, envelope.Invalid("", "set %s (the OAuth secret code from the Shoonya API page)", EnvClientSecret)
	}
	a, err := m.Client.GenAcsTok(ctx, cr, code)
	if err != nil {
		return nil, err
	}
	m.set(user, a, cr)
	return a, nil
}

func missing(cr noren.Credentials, factor2 string) error {
	switch {
	case cr.UID == "":
		return envelope.Invalid("user_id", "set %s or pass user_id", EnvUserID)
	case cr.Password == "":
		return envelope.Invalid("password", "set %s or pass password", EnvPassword)
	case cr.APISecret == "":
		return envelope.Invalid("api_secret", "set %s (the API key from the Shoonya API page) or pass api_secret", EnvAPISecret)
	case factor2 == "" && cr.TOTPSecret == "":
		return envelope.Invalid("totp", "set %s or pass a 6-digit totp", EnvTOTPSecret)
	}
	return nil
}

// relogin logs the user in again after "Session Expired" when the stored
// credentials allow it (legacy with a TOTP secret). OAuth has no public
// refresh endpoint, so it cannot.
func (m *Manager) relogin(ctx context.Context, user string, expired *noren.Auth) (*noren.Auth, error) {
	s := m.user(user)
	s.login.Lock()
	defer s.login.Unlock()
	s.mu.Lock()
	if s.auth != nil && expired != nil && s.auth.Token != expired.Token {
		// Another call logged in again while this one waited.
		a := *s.auth
		s.mu.Unlock()
		return &a, nil
	}
	cr := s.creds
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		if s.auth != nil && expired != nil && s.auth.Token == expired.Token {
			s.auth = nil
		}
		s.mu.Unlock()
	}
	if m.Era() != noren.Legacy || cr.UID == "" || cr.Password == "" || cr.TOTPSecret == "" || cr.APISecret == "" {
		forget()
		return nil, reconnectErr(m.Era())
	}
	a, err := m.LoginLegacy(serve.WithUser(ctx, user), cr, "")
	if err != nil {
		forget()
		return nil, envelope.New(envelope.Unauthenticated, "the Shoonya session expired and logging in again failed; call connect_shoonya_broker").WithCause(err)
	}
	return a, nil
}

func reconnectErr(era noren.Era) error {
	if era == noren.OAuth {
		return envelope.New(envelope.Unauthenticated, "the Shoonya session expired; call connect_shoonya_broker for a new authorize URL, log in, and pass the code").WithCause(noren.ErrSessionExpired)
	}
	return envelope.New(envelope.Unauthenticated, "the Shoonya session expired; call connect_shoonya_broker again (with a fresh totp if %s is not set)", EnvTOTPSecret).WithCause(noren.ErrSessionExpired)
}

// Do runs fn with the caller's session; on "Session Expired" it logs in once
// more where the credentials allow and runs fn again. fn must be safe to
// repeat after a session-expired answer (Noren refuses before acting).
func Do[T any](ctx context.Context, m *Manager, fn func(a *noren.Auth) (T, error)) (T, error) {
	var zero T
	a, err := m.Auth(ctx)
	if err != nil {
		return zero, err
	}
	v, err := fn(a)
	if err == nil || !noren.IsSessionExpired(err) {
		return v, err
	}
	a, err = m.relogin(ctx, serve.UserID(ctx), a)
	if err != nil {
		return zero, err
	}
	v, err = fn(a)
	if noren.IsSessionExpired(err) {
		return zero, reconnectErr(m.Era())
	}
	return v, err
}
