// Package auth makes an HTTP server an OAuth 2.1 resource server, as the MCP
// authorization specification (2026-07-28, basic/authorization) asks of a
// server that supports authorization: it serves its Protected Resource
// Metadata (RFC 9728), answers 401 with a WWW-Authenticate challenge pointing
// at it, accepts only access tokens issued for it (RFC 8707 audience), and
// answers 403 insufficient_scope naming the scope a call needs (step-up).
//
// JWT access tokens are verified against the issuer's JWKS (go-oidc's
// RemoteKeySet: cached, refetched when a token names a key it does not know,
// so rotated keys are picked up); opaque tokens go to the issuer's RFC 7662
// introspection endpoint. Gate puts static tokens, issued tokens
// (pkg/auth/issued) and OAuth access tokens in front of an endpoint. The
// package knows nothing of MCP methods or tools: the caller decides which
// scope a request needs.
package auth

import (
	"context"
	"strings"
)

// Principal is the caller a verified token stands for.
type Principal struct {
	Issuer  string
	Subject string
	Scopes  []string
}

// UserID is the stable id per-user state keys on: the issuer and the subject
// ("<issuer>#<sub>"). A subject is unique only within its issuer (OpenID
// Connect Core §2), and an issuer identifier has no fragment (RFC 8414 §2),
// so "#" cannot be part of it.
func (p Principal) UserID() string { return p.Issuer + "#" + p.Subject }

// Has reports whether the token grants scope. The server's write scope
// implies its read scope (the specification: "servers MUST account for scope
// hierarchies, where a broader scope implies narrower ones").
func (p Principal) Has(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
		if base, ok := strings.CutSuffix(scope, ":read"); ok && s == base+":write" {
			return true
		}
	}
	return false
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext is the request's verified principal, if OAuth is on.
func FromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// ReadScope and WriteScope are a server's two scopes: "<server>:read" for
// tools that change nothing, "<server>:write" for the ones that do (orders,
// training runs, stored rules, running code). Write implies read.
func ReadScope(server string) string  { return server + ":read" }
func WriteScope(server string) string { return server + ":write" }
