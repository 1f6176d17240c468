// Package authtest starts a real OpenID Connect provider on loopback for
// tests: zitadel/oidc's op package (an OpenID-certified Go implementation)
// with the storage of its example server, wrapped where the example's fixed
// clients do not fit a resource server's tests:
//
//   - the example's one client-credentials client issues opaque tokens whose
//     audience is the client itself; here each client is registered with the
//     token type it gets (JWT or opaque) and a token's audience is the RFC
//     8707 "resource" of the token request, as the MCP specification has
//     clients send it;
//   - op puts no "scope" claim in a JWT access token (it asks the storage for
//     private claims), so the storage adds it, as an IdP's scope mapper does;
//   - the signing key can be rotated, to test that verifiers pick up new keys;
//   - introspection (RFC 7662) answers for this package's clients with the
//     token's audience, scope, subject and expiry.
//
// Tokens are obtained through the provider's real token endpoint.
package authtest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Client is a client-credentials client of the provider; its id is the
// subject of its tokens.
type Client struct {
	ID, Secret string
	JWT        bool          // JWT access tokens (else opaque)
	Lifetime   time.Duration // default 5m; negative issues already expired tokens
}

// Provider is a running OpenID provider.
type Provider struct {
	Issuer string
	// IntrospectionClient and IntrospectionSecret are the resource server's
	// credentials at the introspection endpoint.
	IntrospectionClient, IntrospectionSecret string

	st  *store
	srv *http.Server
}

type resourceKey struct{}

// Start runs a provider on 127.0.0.1 with the given clients until the test ends.
func Start(t testing.TB, clients ...Client) *Provider {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	issuer := "http://" + ln.Addr().String()
	st := &store{
		Storage: storage.NewStorage(storage.NewUserStore(issuer)),
		clients: map[string]Client{},
		tokens:  map[string]tokenInfo{},
	}
	for _, c := range clients {
		st.clients[c.ID] = c
	}
	st.rotate()
	p := &Provider{Issuer: issuer, IntrospectionClient: "mcpfleet-rs", IntrospectionSecret: "rs-secret-" + randHex(8), st: st}
	st.rsID, st.rsSecret = p.IntrospectionClient, p.IntrospectionSecret
	cfg := &op.Config{CryptoKey: sha256.Sum256([]byte(issuer)), CodeMethodS256: true, AuthMethodPost: true}
	prov, err := op.NewProvider(cfg, st, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	// The token request's RFC 8707 resource goes to the storage through the
	// request context (op hands the storage r.Context()).
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/oauth/token") {
			if err := r.ParseForm(); err == nil {
				r = r.WithContext(context.WithValue(r.Context(), resourceKey{}, r.PostForm["resource"]))
			}
		}
		prov.ServeHTTP(w, r)
	})
	p.srv = &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	t.Cleanup(func() { _ = p.srv.Close() })
	return p
}

// RotateKey signs new tokens with a fresh key; the old one stays in the JWKS
// (as IdPs keep it until its tokens expired).
func (p *Provider) RotateKey() { p.st.rotate() }

// Token gets an access token for client through the token endpoint
// (client_credentials, client_secret_basic), for the given RFC 8707 resource
// (none when empty) and scopes.
func (p *Provider) Token(t testing.TB, clientID, secret, resource string, scopes ...string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {strings.Join(scopes, " ")}}
	if resource != "" {
		form.Set("resource", resource)
	}
	req, _ := http.NewRequest(http.MethodPost, p.Issuer+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Desc        string `json:"error_description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		t.Fatalf("token request for %s: HTTP %d %s %s (%v)", clientID, resp.StatusCode, out.Error, out.Desc, err)
	}
	return out.AccessToken
}

type tokenInfo struct {
	subject, client string
	audience        []string
	scopes          []string
	exp             time.Time
}

type key struct {
	id  string
	key *rsa.PrivateKey
}

func (k key) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k key) Algorithm() jose.SignatureAlgorithm          { return jose.RS256 }
func (k key) ID() string                                  { return k.id }
func (k key) Use() string                                 { return "sig" }

type signing struct{ key }

func (k signing) Key() any { return k.key.key }

type public struct{ key }

func (k public) Key() any { return &k.key.key.PublicKey }

// store is the example storage with this package's clients, keys and
// introspection.
type store struct {
	*storage.Storage
	rsID, rsSecret string

	mu      sync.Mutex
	clients map[string]Client
	tokens  map[string]tokenInfo
	keys    []key // last is the signing key
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%x", b)
}

func (s *store) rotate() {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, key{id: randHex(8), key: k})
}

func (s *store) SigningKey(context.Context) (op.SigningKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return signing{s.keys[len(s.keys)-1]}, nil
}

func (s *store) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *store) KeySet(context.Context) ([]op.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]op.Key, 0, len(s.keys))
	for _, k := range s.keys {
		out = append(out, public{k})
	}
	return out, nil
}

// client is an example service client with this package's id and token type.
type client struct {
	op.Client
	c Client
}

func (c client) GetID() string { return c.c.ID }
func (c client) AccessTokenType() op.AccessTokenType {
	if c.c.JWT {
		return op.AccessTokenTypeJWT
	}
	return op.AccessTokenTypeBearer
}

func (s *store) ClientCredentials(ctx context.Context, clientID, clientSecret string) (op.Client, error) {
	s.mu.Lock()
	c, ok := s.clients[clientID]
	s.mu.Unlock()
	if !ok || c.Secret != clientSecret {
		return nil, errors.New("wrong client id or secret")
	}
	base, err := s.Storage.ClientCredentials(ctx, "sid1", "verysecret") // the example's service client, for its defaults
	if err != nil {
		return nil, err
	}
	return client{Client: base, c: c}, nil
}

func (s *store) ClientCredentialsTokenRequest(ctx context.Context, clientID string, scopes []string) (op.TokenRequest, error) {
	aud, _ := ctx.Value(resourceKey{}).([]string)
	if len(aud) == 0 {
		aud = []string{clientID}
	}
	return &oidc.JWTTokenRequest{Subject: clientID, Audience: aud, Scopes: scopes}, nil
}

func (s *store) CreateAccessToken(ctx context.Context, req op.TokenRequest) (string, time.Time, error) {
	id, exp, err := s.Storage.CreateAccessToken(ctx, req)
	if err != nil {
		return "", time.Time{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[req.GetSubject()]; ok && c.Lifetime != 0 {
		exp = time.Now().Add(c.Lifetime)
	}
	s.tokens[id] = tokenInfo{subject: req.GetSubject(), audience: req.GetAudience(), scopes: req.GetScopes(), exp: exp}
	return id, exp, nil
}

// GetPrivateClaimsFromScopes puts the granted scopes in the JWT's "scope"
// claim (RFC 9068 §2.2.3).
func (s *store) GetPrivateClaimsFromScopes(ctx context.Context, userID, clientID string, scopes []string) (map[string]any, error) {
	if len(scopes) == 0 {
		return nil, nil
	}
	return map[string]any{"scope": strings.Join(scopes, " ")}, nil
}

func (s *store) AuthorizeClientIDSecret(ctx context.Context, clientID, clientSecret string) error {
	if clientID == s.rsID && clientSecret == s.rsSecret {
		return nil
	}
	s.mu.Lock()
	c, ok := s.clients[clientID]
	s.mu.Unlock()
	if ok && c.Secret == clientSecret {
		return nil
	}
	return s.Storage.AuthorizeClientIDSecret(ctx, clientID, clientSecret)
}

// Revoke revokes token at the provider's revocation endpoint (RFC 7009) as
// clientID: introspection answers inactive for it from then on.
func (p *Provider) Revoke(t testing.TB, clientID, secret, token string) {
	t.Helper()
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, _ := http.NewRequest(http.MethodPost, p.Issuer+"/revoke", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("revocation: HTTP %d", resp.StatusCode)
	}
}

func (s *store) RevokeToken(ctx context.Context, tokenID, userID, clientID string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ti, ok := s.tokens[tokenID]; ok && ti.subject == clientID {
		delete(s.tokens, tokenID)
		return nil
	}
	return oidc.ErrInvalidRequest().WithDescription("token not found")
}

func (s *store) SetIntrospectionFromToken(ctx context.Context, in *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	s.mu.Lock()
	ti, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || clientID != s.rsID {
		return errors.New("token is invalid")
	}
	if time.Now().After(ti.exp) {
		return errors.New("token is expired")
	}
	in.Subject = ti.subject
	in.Audience = ti.audience
	in.Scope = ti.scopes
	in.Expiration = oidc.FromTime(ti.exp)
	in.IssuedAt = oidc.FromTime(time.Now())
	return nil
}
