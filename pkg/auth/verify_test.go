package auth_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
	"github.com/mcpfleet/mcpfleet/pkg/auth/authtest"
)

const resource = "http://127.0.0.1:1/mcp"

func clients() []authtest.Client {
	return []authtest.Client{
		{ID: "jwt-user", Secret: "jwt-secret", JWT: true},
		{ID: "opaque-user", Secret: "opaque-secret"},
		{ID: "expired-user", Secret: "expired-secret", JWT: true, Lifetime: -10 * time.Minute},
		{ID: "expired-opaque", Secret: "expired-secret"},
	}
}

func newVerifier(t *testing.T, p *authtest.Provider) *auth.Verifier {
	t.Helper()
	v, err := auth.New(auth.Config{Issuer: p.Issuer, Resource: resource, ClientID: p.IntrospectionClient, ClientSecret: p.IntrospectionSecret})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	b := []byte(parts[1])
	if b[5] == 'A' {
		b[5] = 'B'
	} else {
		b[5] = 'A'
	}
	parts[1] = string(b)
	return strings.Join(parts, ".")
}

func hs256(t *testing.T, issuer string) string {
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte("0123456789abcdef0123456789abcdef")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(sig).Claims(jwt.Claims{Issuer: issuer, Subject: "mallory", Audience: jwt.Audience{resource}, Expiry: jwt.NewNumericDate(time.Now().Add(time.Hour))}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestVerifyAgainstProvider(t *testing.T) {
	p := authtest.Start(t, clients()...)
	other := authtest.Start(t, clients()...)
	v := newVerifier(t, p)
	ctx := context.Background()
	revoked := p.Token(t, "opaque-user", "opaque-secret", resource, "srv:read")
	p.Revoke(t, "opaque-user", "opaque-secret", revoked)

	tests := []struct {
		name    string
		token   string
		status  int // 0: accepted
		subject string
		scopes  string
		why     string
	}{
		{name: "jwt", token: p.Token(t, "jwt-user", "jwt-secret", resource, "srv:read", "srv:write"), subject: "jwt-user", scopes: "srv:read srv:write"},
		{name: "opaque via introspection", token: p.Token(t, "opaque-user", "opaque-secret", resource, "srv:read"), subject: "opaque-user", scopes: "srv:read"},
		{name: "jwt for another resource", token: p.Token(t, "jwt-user", "jwt-secret", "https://other.example/mcp", "srv:read"), status: 401, why: "another resource"},
		{name: "jwt without resource", token: p.Token(t, "jwt-user", "jwt-secret", "", "srv:read"), status: 401, why: "another resource"},
		{name: "opaque for another resource", token: p.Token(t, "opaque-user", "opaque-secret", "https://other.example/mcp", "srv:read"), status: 401, why: "another resource"},
		{name: "expired jwt", token: p.Token(t, "expired-user", "expired-secret", resource, "srv:read"), status: 401, why: "expired"},
		{name: "tampered jwt", token: tamper(p.Token(t, "jwt-user", "jwt-secret", resource, "srv:read")), status: 401, why: "signature"},
		{name: "jwt of another issuer", token: other.Token(t, "jwt-user", "jwt-secret", resource, "srv:read"), status: 401, why: "signature"},
		{name: "hs256 not allowed", token: hs256(t, p.Issuer), status: 401, why: "allowed algorithm"},
		{name: "malformed jwt", token: "a.b.c", status: 401, why: "allowed algorithm"},
		{name: "unknown opaque", token: "not-a-token-0123456789", status: 401, why: "not active"},
		{name: "revoked opaque", token: revoked, status: 401, why: "not active"},
		{name: "no token", token: "", status: 401, why: "needs an OAuth access token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pr, err := v.Verify(ctx, tc.token)
			if tc.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if pr.Subject != tc.subject || pr.Issuer != p.Issuer || strings.Join(pr.Scopes, " ") != tc.scopes {
					t.Fatalf("principal %+v", pr)
				}
				if pr.UserID() != p.Issuer+"#"+tc.subject {
					t.Fatalf("user id %q", pr.UserID())
				}
				return
			}
			var ae *auth.Error
			if !errors.As(err, &ae) || ae.Status != tc.status || !strings.Contains(ae.Description, tc.why) {
				t.Fatalf("got %v, want %d mentioning %q", err, tc.status, tc.why)
			}
			if tc.token != "" && strings.Contains(ae.Description, tc.token) {
				t.Fatal("the error quotes the token")
			}
		})
	}
}

// A token signed with a key the verifier has not seen yet (the issuer
// rotated) is accepted: the key set is fetched again.
func TestVerifyPicksUpRotatedKey(t *testing.T) {
	p := authtest.Start(t, clients()...)
	v := newVerifier(t, p)
	if _, err := v.Verify(context.Background(), p.Token(t, "jwt-user", "jwt-secret", resource, "srv:read")); err != nil {
		t.Fatal(err)
	}
	p.RotateKey()
	if _, err := v.Verify(context.Background(), p.Token(t, "jwt-user", "jwt-secret", resource, "srv:read")); err != nil {
		t.Fatalf("token of the rotated key: %v", err)
	}
}

func TestVerifyIssuerDown(t *testing.T) {
	v, err := auth.New(auth.Config{Issuer: "http://127.0.0.1:1", Resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(context.Background(), "x.y.z")
	var ae *auth.Error
	if !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable {
		t.Fatalf("got %v, want 503", err)
	}
}

// MCPFLEET_OAUTH_AUDIENCE replaces the resource as the required audience.
func TestVerifyConfiguredAudience(t *testing.T) {
	p := authtest.Start(t, clients()...)
	v, err := auth.New(auth.Config{Issuer: p.Issuer, Resource: resource, Audience: "project-123"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), p.Token(t, "jwt-user", "jwt-secret", "project-123", "srv:read")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), p.Token(t, "jwt-user", "jwt-secret", resource, "srv:read")); err == nil {
		t.Fatal("a token for the resource URL passed where the configured audience is required")
	}
}

func TestConfigRefused(t *testing.T) {
	for _, c := range []auth.Config{
		{Issuer: "idp.example.com", Resource: resource},
		{Issuer: "http://idp.example.com", Resource: resource},
		{Issuer: "https://idp.example.com", Resource: "https://mcp.example.com/#x"},
		{Issuer: "https://idp.example.com", Resource: resource, Algorithms: []string{"HS256"}},
		{Issuer: "https://idp.example.com", Resource: resource, Algorithms: []string{"none"}},
	} {
		if _, err := auth.New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestScopeHierarchy(t *testing.T) {
	p := auth.Principal{Scopes: []string{"srv:write"}}
	if !p.Has("srv:read") || !p.Has("srv:write") || p.Has("other:read") {
		t.Fatal("write must imply read of the same server only")
	}
	if (auth.Principal{Scopes: []string{"srv:read"}}).Has("srv:write") {
		t.Fatal("read must not imply write")
	}
}

func TestChallenge(t *testing.T) {
	h := http.Header{}
	auth.Challenge(h, "https://mcp.example.com/mcp", &auth.Error{Status: 403, Code: "insufficient_scope", Scope: "srv:write", Description: `needs "srv:write"`})
	want := `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="srv:write", error="insufficient_scope", error_description="needs 'srv:write'"`
	if got := h.Get("WWW-Authenticate"); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// Without OAuth (static or issued tokens only) there is no metadata to point
// at: the challenge names the realm, as the static refusal always did.
func TestChallengeWithoutOAuth(t *testing.T) {
	h := http.Header{}
	auth.Challenge(h, "", &auth.Error{Status: 403, Code: "insufficient_scope", Scope: "srv:write", Description: "needs srv:write"})
	want := `Bearer realm="mcpfleet", scope="srv:write", error="insufficient_scope", error_description="needs srv:write"`
	if got := h.Get("WWW-Authenticate"); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	h = http.Header{}
	auth.Challenge(h, "", &auth.Error{Status: 401, Description: "missing or invalid bearer token"})
	if got := h.Get("WWW-Authenticate"); got != `Bearer realm="mcpfleet"` {
		t.Fatalf("got %s", got)
	}
}
