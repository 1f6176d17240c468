package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
)

// Checker verifies tokens of one kind that the gate recognises by their
// form (issued tokens: pkg/auth/issued). Check's errors are *Error values.
type Checker interface {
	Handles(token string) bool
	Check(ctx context.Context, token string) (Principal, error)
}

// Gate is the bearer check in front of an HTTP endpoint. A static token
// (MCPFLEET_AUTH_TOKENS) admits its user, who may call everything; a token
// Issued handles goes to it; any other to the OAuth verifier. Issued and
// OAuth callers carry a Principal, whose scopes decide what they may call,
// and need Scope at least. With none of the three configured the gate lets
// every request through.
type Gate struct {
	Static   map[string]string // token -> user
	Issued   Checker           // nil: off
	OAuth    *Verifier         // nil: off
	Resource string            // the OAuth resource for challenges; "": none (realm="mcpfleet")
	Scope    string            // the scope every principal needs (the server's read scope)
	// Refuse writes a refusal's status and body (pkg/serve: a JSON-RPC error).
	Refuse func(w http.ResponseWriter, status int, msg string)
	// WithUser puts the caller's user id in ctx for per-user state.
	WithUser func(ctx context.Context, user string) context.Context
}

// Handler checks each request's bearer token and passes an admitted one to
// next with the user (and principal) in its context.
func (g *Gate) Handler(next http.Handler) http.Handler {
	if len(g.Static) == 0 && g.Issued == nil && g.OAuth == nil {
		return next
	}
	type entry struct {
		tok  []byte
		user string
	}
	static := make([]entry, 0, len(g.Static))
	for t, u := range g.Static {
		static = append(static, entry{[]byte(t), u})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := BearerToken(r)
		// Every static token is compared in constant time, so timing tells
		// nothing about which one is close.
		user, tb := "", []byte(tok)
		for _, e := range static {
			if subtle.ConstantTimeCompare(tb, e.tok) == 1 {
				user = e.user
			}
		}
		if tok != "" && user != "" {
			next.ServeHTTP(w, r.WithContext(g.WithUser(r.Context(), user)))
			return
		}
		var p Principal
		var err error
		switch {
		case g.Issued != nil && g.Issued.Handles(tok):
			p, err = g.Issued.Check(r.Context(), tok)
		case g.OAuth != nil:
			p, err = g.OAuth.Verify(r.Context(), tok)
		default:
			err = &Error{Status: http.StatusUnauthorized}
		}
		if err == nil && !p.Has(g.Scope) {
			err = &Error{Status: http.StatusForbidden, Code: "insufficient_scope", Scope: g.Scope, Description: "the token lacks " + g.Scope}
		}
		var e *Error
		if errors.As(err, &e) {
			switch {
			case g.Resource != "":
				e.Scope = g.Scope
			case e.Status == http.StatusUnauthorized:
				// Without OAuth every invalid token is answered alike, as a
				// wrong static token always was.
				e = &Error{Status: http.StatusUnauthorized, Description: "missing or invalid bearer token"}
			}
			g.Deny(w, e)
			return
		}
		ctx := WithPrincipal(g.WithUser(r.Context(), p.UserID()), p)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Deny answers a refusal: the challenge (RFC 6750 §3) for 401 and 403,
// Retry-After for 503 (the token could not be checked now).
func (g *Gate) Deny(w http.ResponseWriter, e *Error) {
	if e.Status != http.StatusServiceUnavailable {
		Challenge(w.Header(), g.Resource, e)
	} else {
		w.Header().Set("Retry-After", "10")
	}
	g.Refuse(w, e.Status, e.Description)
}

// BearerToken is the token of an "Authorization: Bearer <token>" header, or "".
func BearerToken(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}
