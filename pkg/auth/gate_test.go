package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
)

// fakeChecker handles tokens starting with "iss_": iss_ok is alice with
// the read scope, iss_none has no scope, iss_down cannot be checked, any
// other is invalid.
type fakeChecker struct{}

func (fakeChecker) Handles(tok string) bool { return strings.HasPrefix(tok, "iss_") }

func (fakeChecker) Check(_ context.Context, tok string) (auth.Principal, error) {
	switch tok {
	case "iss_ok":
		return auth.Principal{Issuer: "issued", Subject: "alice", Scopes: []string{"srv:read"}}, nil
	case "iss_none":
		return auth.Principal{Issuer: "issued", Subject: "bob"}, nil
	case "iss_down":
		return auth.Principal{}, &auth.Error{Status: 503, Description: "retry"}
	}
	return auth.Principal{}, &auth.Error{Status: 401, Code: "invalid_token", Description: "revoked"}
}

type userKey struct{}

func TestGate(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, _ := r.Context().Value(userKey{}).(string)
		p, _ := auth.FromContext(r.Context())
		_, _ = w.Write([]byte("user=" + u + " principal=" + p.Subject))
	})
	gate := func(static map[string]string, issued auth.Checker) http.Handler {
		g := &auth.Gate{Static: static, Issued: issued, Scope: "srv:read",
			Refuse: func(w http.ResponseWriter, status int, msg string) {
				w.WriteHeader(status)
				_, _ = w.Write([]byte(msg))
			},
			WithUser: func(ctx context.Context, u string) context.Context { return context.WithValue(ctx, userKey{}, u) }}
		return g.Handler(next)
	}
	const static = "static-0123456789abcdef"
	invalid := `Bearer realm="mcpfleet"`
	for _, c := range []struct {
		name      string
		h         http.Handler
		token     string
		status    int
		challenge string
		body      string
	}{
		{"nothing configured lets everyone in", gate(nil, nil), "", 200, "", "user= principal="},
		{"static token", gate(map[string]string{static: "ops"}, fakeChecker{}), static, 200, "", "user=ops principal="},
		{"wrong static token", gate(map[string]string{static: "ops"}, fakeChecker{}), "static-0123456789abcdeX", 401, invalid, "missing or invalid bearer token"},
		{"no token", gate(nil, fakeChecker{}), "", 401, invalid, "missing or invalid bearer token"},
		{"issued token", gate(map[string]string{static: "ops"}, fakeChecker{}), "iss_ok", 200, "", "user=issued#alice principal=alice"},
		{"invalid issued token: as any invalid token", gate(map[string]string{static: "ops"}, fakeChecker{}), "iss_revoked", 401, invalid, "missing or invalid bearer token"},
		{"issued token without the scope", gate(nil, fakeChecker{}), "iss_none", 403, `Bearer realm="mcpfleet", scope="srv:read", error="insufficient_scope", error_description="the token lacks srv:read"`, "the token lacks srv:read"},
		{"store down", gate(nil, fakeChecker{}), "iss_down", 503, "", "retry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			if c.token != "" {
				req.Header.Set("Authorization", "Bearer "+c.token)
			}
			rec := httptest.NewRecorder()
			c.h.ServeHTTP(rec, req)
			if rec.Code != c.status || rec.Header().Get("WWW-Authenticate") != c.challenge || rec.Body.String() != c.body {
				t.Fatalf("%d %q %q; want %d %q %q", rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body.String(), c.status, c.challenge, c.body)
			}
			if c.status == 503 && rec.Header().Get("Retry-After") == "" {
				t.Fatal("503 without Retry-After")
			}
		})
	}
}
