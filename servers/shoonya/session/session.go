// Package session keeps each user's Noren login, keyed by identity.UserID(ctx)
// (the process on stdio, the bearer token's user on HTTP), never by the MCP
// session id: 2026-07-28 clients have none, and a broker login belongs to a
// person, not to a connection.
package session

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/identity"
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
	g := func(k string) string { return env.Or(k, "") }
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
	// Store, when set (Redis with MCPFLEET_REDIS_URL), is where logins live:
	// every replica reads and writes it, so any replica serves a user's calls.
	// The live feed stays per replica (feed.Hub).
	Store Store
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
	if m.Store != nil {
		rec, err := m.load(ctx, identity.UserID(ctx))
		if err != nil {
			return nil, err
		}
		if rec == nil {
			return nil, envelope.New(envelope.Unauthenticated, "not logged in to Shoonya; call connect_shoonya_broker first")
		}
		a := rec.Auth
		return &a, nil
	}
	s := m.user(identity.UserID(ctx))
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
	if m.Store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		rec, err := m.load(ctx, user)
		if err != nil || rec == nil {
			return nil, false
		}
		a := rec.Auth
		return &a, true
	}
	s := m.user(user)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.auth == nil {
		return nil, false
	}
	a := *s.auth
	return &a, true
}

// set records a login (in the Store too, when there is one: a login that
// other replicas cannot see is an error, not a half success).
func (m *Manager) set(ctx context.Context, user string, a *noren.Auth, cr noren.Credentials) error {
	at := m.Now()
	if m.Store != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
		err := m.Store.Save(sctx, user, recordOf(*a, cr, at))
		cancel()
		if err != nil {
			return envelope.New(envelope.UpstreamUnavailable, "logged in to Shoonya, but the shared session store (Redis) did not take the session; call connect_shoonya_broker again").WithCause(err)
		}
	}
	s := m.user(user)
	s.mu.Lock()
	s.auth, s.creds, s.at = a, cr, at
	s.mu.Unlock()
	if m.OnLogin != nil {
		m.OnLogin(user, *a)
	}
	return nil
}

// Logout forgets the caller's session (on every replica, with a Store).
func (m *Manager) Logout(ctx context.Context) {
	user := identity.UserID(ctx)
	if m.Store != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
		_ = m.Store.Delete(sctx, user) // best effort: the broker token was revoked already or expires with the day
		cancel()
	}
	s := m.user(user)
	s.mu.Lock()
	s.auth = nil
	s.mu.Unlock()
}

// storeTimeout bounds one Store round trip (loopback Redis answers in < 1 ms).
const storeTimeout = 3 * time.Second

// load reads a user's login from the Store. A record this replica cannot
// decrypt (another MCPFLEET_STATE_KEY) reads as logged out; Redis not
// answering is a retryable error.
func (m *Manager) load(ctx context.Context, user string) (*Record, error) {
	rec, err := m.Store.Load(ctx, user)
	if errors.Is(err, errUnreadable) {
		return nil, nil
	}
	if err != nil {
		return nil, envelope.New(envelope.UpstreamUnavailable, "the shared session store (Redis at MCPFLEET_REDIS_URL) did not answer; nothing was sent to the broker; retry shortly").WithCause(err)
	}
	return rec, nil
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
	if err := m.set(ctx, identity.UserID(ctx), a, cr); err != nil {
		return nil, err
	}
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
	if err := m.set(ctx, user, a, cr); err != nil {
		return nil, err
	}
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
	if m.Store != nil {
		return m.reloginShared(ctx, user, s, expired)
	}
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
	a, err := m.LoginLegacy(identity.WithUser(ctx, user), cr, "")
	if err != nil {
		forget()
		return nil, envelope.New(envelope.Unauthenticated, "the Shoonya session expired and logging in again failed; call connect_shoonya_broker").WithCause(err)
	}
	return a, nil
}

// reloginShared is relogin with the Store as the source of truth: another
// replica may have logged in again already; the credentials are this
// replica's when it made the login, else the stored identifiers plus the
// environment's secrets.
func (m *Manager) reloginShared(ctx context.Context, user string, s *state, expired *noren.Auth) (*noren.Auth, error) {
	rec, err := m.load(ctx, user)
	if err != nil {
		return nil, err
	}
	if rec != nil && expired != nil && rec.Auth.Token != expired.Token {
		a := rec.Auth
		return &a, nil
	}
	forget := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
		defer cancel()
		if cur, err := m.load(sctx, user); err == nil && cur != nil && expired != nil && cur.Auth.Token == expired.Token {
			_ = m.Store.Delete(sctx, user)
		}
	}
	s.mu.Lock()
	cr := s.creds
	s.mu.Unlock()
	if cr.UID == "" && rec != nil {
		cr = rec.credentials(m.Env)
	}
	if m.Era() != noren.Legacy || cr.UID == "" || cr.Password == "" || cr.TOTPSecret == "" || cr.APISecret == "" {
		forget()
		return nil, reconnectErr(m.Era())
	}
	a, err := m.LoginLegacy(identity.WithUser(ctx, user), cr, "")
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
	a, err = m.relogin(ctx, identity.UserID(ctx), a)
	if err != nil {
		return zero, err
	}
	v, err = fn(a)
	if noren.IsSessionExpired(err) {
		return zero, reconnectErr(m.Era())
	}
	return v, err
}
