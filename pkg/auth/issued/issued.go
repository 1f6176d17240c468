// Package issued holds bearer tokens that an operator issues with
// `mcpfleet token issue` for a team without an identity provider: random
// secrets kept only as SHA-256 hashes, each bound to one server, one user,
// the server's scopes it grants and an optional expiry, revocable by id.
//
// Tokens live where the server keeps its shared state: the embedded store
// file of the server (NewStore) or Redis when replicas share one (NewRedis).
// The server looks every presented token up on every request (Check), with
// no cache, so a revocation or an expiry bites on the next request on every
// process that reads the same store.
//
// The package knows nothing of HTTP or MCP; pkg/serve turns a Check into a
// principal whose scopes apply like an OAuth token's.
package issued

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
)

// Prefix starts every issued token, so a leaked one is recognisable (secret
// scanners, logs) and the server tells it from a static or OAuth token
// without a lookup.
const Prefix = "mcpf_"

// secretBytes of crypto/rand make a token: 256 bits, far beyond guessing.
const secretBytes = 32

// secretLen is the length of a token: the prefix and the unpadded base64url
// of secretBytes.
var secretLen = len(Prefix) + base64.RawURLEncoding.EncodedLen(secretBytes)

// Token is what is kept of an issued token: never the secret, and the hash
// only as the key it is stored under.
type Token struct {
	ID      string    `json:"id"` // 8 hex of its own randomness, never derived from the secret or hash
	Server  string    `json:"server"`
	User    string    `json:"user"`
	Scopes  []string  `json:"scopes"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires,omitzero"` // zero: never
	Revoked time.Time `json:"revoked,omitzero"` // zero: not revoked
}

// Status is "active", "expired" or "revoked" at now.
func (t Token) Status(now time.Time) string {
	switch {
	case !t.Revoked.IsZero():
		return "revoked"
	case !t.Expires.IsZero() && !now.Before(t.Expires):
		return "expired"
	default:
		return "active"
	}
}

// Principal is the caller the token stands for, as an OAuth token's would
// be: its UserID is "issued#<user>", apart from static users (no "#") and
// OAuth users ("<issuer URL>#<sub>": an issuer is an https URL, never the
// bare word "issued").
func (t Token) Principal() auth.Principal {
	return auth.Principal{Issuer: "issued", Subject: t.User, Scopes: t.Scopes}
}

// Store keeps issued tokens of one server. Hashes are hex SHA-256 of the
// secret. Implementations: NewStore (embedded SQLite file), NewRedis.
type Store interface {
	// Add records t under hash; ErrDuplicate when its id is taken.
	Add(ctx context.Context, hash string, t Token) error
	// Lookup finds the token stored under hash; found is false for none.
	Lookup(ctx context.Context, hash string) (t Token, found bool, err error)
	// List is every token of the server, oldest first, revoked and
	// expired ones included.
	List(ctx context.Context) ([]Token, error)
	// Revoke marks the token with id revoked at now (a token already
	// revoked keeps its first time); false when there is no such id.
	Revoke(ctx context.Context, id string, now time.Time) (bool, error)
}

// Errors of Check. All but ErrUnavailable mean "not a valid token": the
// server answers them alike (401), so a caller learns nothing of which.
var (
	ErrMalformed   = errors.New("not an issued token")
	ErrUnknown     = errors.New("no such token")
	ErrRevoked     = errors.New("the token was revoked")
	ErrExpired     = errors.New("the token expired")
	ErrWrongServer = errors.New("the token is for another server")
	ErrUnavailable = errors.New("the token store cannot be read")
	ErrDuplicate   = errors.New("token id already taken")
)

// LooksIssued reports whether s has the form of an issued token: the prefix,
// the exact length, and base64url characters only. Everything else is
// refused before any lookup.
func LooksIssued(s string) bool {
	if len(s) != secretLen || !strings.HasPrefix(s, Prefix) {
		return false
	}
	for _, c := range s[len(Prefix):] {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Hash is the key a token is stored under: hex SHA-256 of the secret. A
// plain hash suffices (no key, no slow KDF): the secret is 256 random bits,
// so neither a dictionary nor brute force can invert the hash of one, and a
// key would only add a second secret to guard. Looking a hash up is not a
// timing oracle for the same reason: matching a prefix of a hash tells
// nothing of any secret.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Scopes checks requested scopes for server and returns them normalised:
// "read"/"write" or "<server>:read"/"<server>:write", no others; none
// requested means both (the token may call every tool).
func Scopes(server string, requested []string) ([]string, error) {
	if len(requested) == 0 {
		return []string{auth.ReadScope(server), auth.WriteScope(server)}, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range requested {
		switch s {
		case "read", auth.ReadScope(server):
			s = auth.ReadScope(server)
		case "write", auth.WriteScope(server):
			s = auth.WriteScope(server)
		default:
			return nil, fmt.Errorf("scope %q is not one of %s's: %s (tools that change nothing) or %s (every tool)",
				s, server, auth.ReadScope(server), auth.WriteScope(server))
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// Issue makes a token for user on server with scopes (checked by Scopes),
// valid for ttl (0: until revoked), records its hash in s and returns the
// secret, which exists nowhere else: show it once.
func Issue(ctx context.Context, s Store, server, user string, scopes []string, ttl time.Duration, now time.Time) (string, Token, error) {
	if err := checkUser(user); err != nil {
		return "", Token{}, err
	}
	if ttl < 0 {
		return "", Token{}, errors.New("the expiry must be in the future")
	}
	sc, err := Scopes(server, scopes)
	if err != nil {
		return "", Token{}, err
	}
	t := Token{Server: server, User: user, Scopes: sc, Created: now.UTC().Truncate(time.Second)}
	if ttl > 0 {
		t.Expires = now.Add(ttl).UTC().Truncate(time.Second)
	}
	for range 3 { // 32-bit ids: a collision is rare, and Add refuses it
		raw := make([]byte, secretBytes)
		id := make([]byte, 4)
		_, _ = rand.Read(raw) // crypto/rand.Read never fails (Go 1.24+)
		_, _ = rand.Read(id)
		secret := Prefix + base64.RawURLEncoding.EncodeToString(raw)
		t.ID = hex.EncodeToString(id)
		err = s.Add(ctx, Hash(secret), t)
		if err == nil {
			return secret, t, nil
		}
		if !errors.Is(err, ErrDuplicate) {
			return "", Token{}, err
		}
	}
	return "", Token{}, err
}

// checkUser keeps user ids printable and short: they appear in logs and
// per-user keys.
func checkUser(user string) error {
	if user == "" || len(user) > 128 {
		return errors.New("--user must be 1 to 128 characters")
	}
	for _, c := range user {
		if c <= ' ' || c == 0x7f || c == '"' || c == '\\' {
			return fmt.Errorf("--user %q: use letters, digits and punctuation, no spaces, quotes or control characters", user)
		}
	}
	return nil
}

// Check looks secret up for server at now and returns its token when it is
// valid. The error is one of the package's (wrapped for ErrUnavailable);
// none quotes the secret or its hash.
func Check(ctx context.Context, s Store, server, secret string, now time.Time) (Token, error) {
	if !LooksIssued(secret) {
		return Token{}, ErrMalformed
	}
	t, found, err := s.Lookup(ctx, Hash(secret))
	switch {
	case err != nil:
		return Token{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	case !found:
		return Token{}, ErrUnknown
	case t.Server != server:
		return Token{}, ErrWrongServer
	}
	switch t.Status(now) {
	case "revoked":
		return Token{}, ErrRevoked
	case "expired":
		return Token{}, ErrExpired
	}
	return t, nil
}

// RevokeUser revokes every token of user not yet revoked and returns their ids.
func RevokeUser(ctx context.Context, s Store, user string, now time.Time) ([]string, error) {
	ts, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range ts {
		if t.User != user || !t.Revoked.IsZero() {
			continue
		}
		if _, err := s.Revoke(ctx, t.ID, now); err != nil {
			return ids, err
		}
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// Refusal is how the HTTP front answers a Check error: nil for none; 503
// when the store cannot be read (the caller logs err, the client is told to
// retry); else 401 invalid_token with one description for every cause, so
// a caller cannot tell a revoked token from one that never existed.
func Refusal(err error) *auth.Error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrUnavailable):
		return &auth.Error{Status: 503, Description: "cannot check the token now (the token store is unreachable); retry in a few seconds"}
	default:
		return &auth.Error{Status: 401, Code: "invalid_token", Description: "the token is not valid here (unknown, expired or revoked): ask the operator for a new one (mcpfleet token issue)"}
	}
}

// checker is a Store as the HTTP gate's auth.Checker.
type checker struct {
	s           Store
	server      string
	unavailable func(error)
}

// NewChecker lets an auth.Gate check issued tokens of server in s at the
// time of each request; unavailable is told every failure to read s (for
// the log: the client only learns to retry).
func NewChecker(s Store, server string, unavailable func(error)) auth.Checker {
	return checker{s, server, unavailable}
}

func (c checker) Handles(token string) bool { return LooksIssued(token) }

func (c checker) Check(ctx context.Context, token string) (auth.Principal, error) {
	t, err := Check(ctx, c.s, c.server, token, time.Now())
	if errors.Is(err, ErrUnavailable) && c.unavailable != nil {
		c.unavailable(err)
	}
	if e := Refusal(err); e != nil {
		return auth.Principal{}, e
	}
	return t.Principal(), nil
}
