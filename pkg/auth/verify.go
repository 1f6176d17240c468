package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Config is one deployment's resource-server setup.
type Config struct {
	// Issuer is the authorization server's issuer identifier
	// (MCPFLEET_OAUTH_ISSUER), compared exactly with the metadata's and the
	// tokens' "iss".
	Issuer string
	// Resource is this server's canonical URI (MCPFLEET_PUBLIC_URL): the PRM
	// "resource" and the audience every token must carry (RFC 8707 §2).
	Resource string
	// Audience is the "aud" tokens must carry, when the IdP cannot put the
	// resource URI there (MCPFLEET_OAUTH_AUDIENCE: a ZITADEL project id, an
	// Entra ID application id); default Resource.
	Audience string
	// ClientID and ClientSecret authenticate this server at the issuer's
	// introspection endpoint (RFC 7662 §2.1 requires it). Without them only
	// JWT access tokens are accepted.
	ClientID, ClientSecret string
	// Algorithms allowed in a JWT's "alg"; default DefaultAlgorithms. "none"
	// and the HMAC family are never accepted: a resource server holds no
	// shared secret with the issuer.
	Algorithms []string
	// Leeway is the clock skew allowed on exp, nbf and iat; default 30s.
	Leeway time.Duration
	// HTTP is the client for discovery, JWKS and introspection; default one
	// with a 10s timeout.
	HTTP *http.Client
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// DefaultAlgorithms are the asymmetric JWS algorithms of RFC 7518 and
// RFC 8037 that the issuers we document sign with (RS256 everywhere; ES256,
// PS256 and EdDSA where configured).
var DefaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// Error is a refusal: Status is 401 (no, malformed, expired or foreign
// token), 403 (insufficient_scope) or 503 (the issuer cannot be reached).
// Description never quotes the token.
type Error struct {
	Status      int
	Code        string // RFC 6750 §3.1: invalid_token, insufficient_scope; "" when no token was sent
	Description string
	Scope       string // the scope the request needs
}

func (e *Error) Error() string { return e.Description }

func invalid(desc string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: "invalid_token", Description: desc}
}

// Verifier checks access tokens for one resource.
type Verifier struct {
	cfg   Config
	algs  []jose.SignatureAlgorithm
	httpc *http.Client

	mu       sync.Mutex
	meta     *metadata
	keys     *oidc.RemoteKeySet
	failedAt time.Time
}

// New returns a verifier; the issuer's metadata is fetched on first use (and
// again after a failure, at most every 10s), so a server starts while its
// issuer is briefly down.
func New(cfg Config) (*Verifier, error) {
	if err := checkURL("MCPFLEET_OAUTH_ISSUER", cfg.Issuer); err != nil {
		return nil, err
	}
	if err := checkURL("MCPFLEET_PUBLIC_URL", cfg.Resource); err != nil {
		return nil, err
	}
	if cfg.Audience == "" {
		cfg.Audience = cfg.Resource
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if len(cfg.Algorithms) == 0 {
		cfg.Algorithms = DefaultAlgorithms
	}
	v := &Verifier{cfg: cfg, httpc: cfg.HTTP}
	for _, a := range cfg.Algorithms {
		if a == "none" || strings.HasPrefix(a, "HS") {
			return nil, fmt.Errorf("JWT algorithm %s is not allowed for access tokens: use an asymmetric one (RS256, ES256, EdDSA)", a)
		}
		v.algs = append(v.algs, jose.SignatureAlgorithm(a))
	}
	if v.httpc == nil {
		v.httpc = &http.Client{Timeout: 10 * time.Second}
	}
	return v, nil
}

// Config is the verifier's configuration (with defaults filled in).
func (v *Verifier) Config() Config { return v.cfg }

func checkURL(name, s string) error {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" || u.RawQuery != "" {
		return fmt.Errorf("%s must be an absolute http(s) URL without query or fragment, like https://idp.example.com/realms/team", name)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return fmt.Errorf("%s must use https (http only for a loopback host)", name)
	}
	return nil
}

func isLoopback(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// metadata is what the verifier needs of the issuer's metadata document.
type metadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// discover fetches the issuer's metadata: OpenID Connect Discovery first,
// then RFC 8414 (the MCP specification has authorization servers serve at
// least one of them). The document's issuer must equal the configured one
// exactly (RFC 8414 §3.3, OIDC Discovery §4.3).
func (v *Verifier) discover(ctx context.Context) (*metadata, *oidc.RemoteKeySet, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.meta != nil {
		return v.meta, v.keys, nil
	}
	if !v.failedAt.IsZero() && v.cfg.Now().Sub(v.failedAt) < 10*time.Second {
		return nil, nil, errors.New("the authorization server's metadata could not be fetched; retrying shortly")
	}
	// The fetch outlives the request that triggered it: a client hanging up
	// must not count as the issuer failing.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var lastErr error
	for _, u := range metadataURLs(v.cfg.Issuer) {
		m, err := v.fetchMetadata(ctx, u)
		if err != nil {
			lastErr = err
			continue
		}
		if m.Issuer != v.cfg.Issuer {
			lastErr = fmt.Errorf("the metadata at %s names issuer %q, not MCPFLEET_OAUTH_ISSUER %q", u, m.Issuer, v.cfg.Issuer)
			continue
		}
		if m.JWKSURI == "" && m.IntrospectionEndpoint == "" {
			lastErr = fmt.Errorf("the metadata at %s has neither jwks_uri nor introspection_endpoint", u)
			continue
		}
		v.meta = m
		if m.JWKSURI != "" {
			v.keys = oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), v.httpc), m.JWKSURI)
		}
		return v.meta, v.keys, nil
	}
	v.failedAt = v.cfg.Now()
	return nil, nil, lastErr
}

// metadataURLs are the two well-known locations for an issuer: OIDC appends
// to the issuer's path, RFC 8414 §3.1 inserts before it.
func metadataURLs(issuer string) []string {
	u, _ := url.Parse(issuer)
	p := strings.TrimSuffix(u.Path, "/")
	oidcURL := *u
	oidcURL.Path = p + "/.well-known/openid-configuration"
	asURL := *u
	asURL.Path = "/.well-known/oauth-authorization-server" + p
	return []string{oidcURL.String(), asURL.String()}
}

func (v *Verifier) fetchMetadata(ctx context.Context, u string) (*metadata, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := v.httpc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %v", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: HTTP %d", u, resp.StatusCode)
	}
	var m metadata
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding %s: %v", u, err)
	}
	return &m, nil
}

// Verify checks a bearer token and returns whom it stands for. A token that
// parses as a JWS is verified locally; any other is introspected when the
// issuer offers introspection and this server has credentials for it.
func (v *Verifier) Verify(ctx context.Context, token string) (Principal, error) {
	if token == "" {
		return Principal{}, &Error{Status: http.StatusUnauthorized, Description: "this server needs an OAuth access token: Authorization: Bearer <token>"}
	}
	meta, keys, err := v.discover(ctx)
	if err != nil {
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "cannot check the token: " + err.Error()}
	}
	if strings.Count(token, ".") == 2 {
		return v.verifyJWT(ctx, keys, token)
	}
	if meta.IntrospectionEndpoint == "" || v.cfg.ClientID == "" {
		return Principal{}, invalid("the token is not a JWT, and opaque tokens need the issuer's introspection endpoint and MCPFLEET_OAUTH_CLIENT_ID/SECRET")
	}
	return v.introspect(ctx, meta.IntrospectionEndpoint, token)
}

// accessClaims are the RFC 9068 claims a resource server reads. Scopes come
// as "scope" (a space-separated string: RFC 9068 §2.2.3, Keycloak, Auth0,
// ZITADEL, Hydra) or as "scp" (Entra ID: a space-separated string; Okta: an
// array).
type accessClaims struct {
	jwt.Claims
	Scope string          `json:"scope"`
	Scp   json.RawMessage `json:"scp"`
}

func (c accessClaims) scopes() []string {
	out := strings.Fields(c.Scope)
	if len(c.Scp) > 0 {
		var s string
		var list []string
		if json.Unmarshal(c.Scp, &s) == nil {
			out = append(out, strings.Fields(s)...)
		} else if json.Unmarshal(c.Scp, &list) == nil {
			out = append(out, list...)
		}
	}
	return out
}

func (v *Verifier) verifyJWT(ctx context.Context, keys *oidc.RemoteKeySet, token string) (Principal, error) {
	if keys == nil {
		return Principal{}, invalid("the issuer publishes no jwks_uri, so JWT access tokens cannot be checked")
	}
	// The allow-list first: go-oidc's key set would accept any algorithm
	// its key supports.
	if _, err := jose.ParseSigned(token, v.algs); err != nil {
		return Principal{}, invalid("the token is not a JWT signed with an allowed algorithm (" + strings.Join(v.cfg.Algorithms, ", ") + ")")
	}
	payload, err := keys.VerifySignature(oidc.ClientContext(ctx, v.httpc), token)
	if err != nil {
		return Principal{}, invalid("the token's signature does not verify against the issuer's keys")
	}
	var c accessClaims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Principal{}, invalid("the token's claims are not a JSON object")
	}
	return v.check(c)
}

// check applies the checks a JWT and an introspection answer share: issuer,
// audience, expiry (required), not-before and issued-at with leeway, subject.
func (v *Verifier) check(c accessClaims) (Principal, error) {
	if c.Expiry == nil {
		return Principal{}, invalid("the token has no expiry (exp)")
	}
	err := c.Claims.ValidateWithLeeway(jwt.Expected{Issuer: v.cfg.Issuer, AnyAudience: jwt.Audience{v.cfg.Audience}, Time: v.cfg.Now()}, v.cfg.Leeway)
	switch {
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return Principal{}, invalid("the token was issued by another authorization server; get one from " + v.cfg.Issuer)
	case errors.Is(err, jwt.ErrInvalidAudience):
		return Principal{}, invalid("the token is for another resource; request it with resource=" + v.cfg.Resource + " (RFC 8707)")
	case errors.Is(err, jwt.ErrExpired):
		return Principal{}, invalid("the token has expired; get a new one")
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return Principal{}, invalid("the token is not valid yet")
	case err != nil:
		return Principal{}, invalid("the token's claims are invalid")
	}
	if c.Subject == "" {
		return Principal{}, invalid("the token has no subject (sub)")
	}
	return Principal{Issuer: c.Issuer, Subject: c.Subject, Scopes: c.scopes()}, nil
}
