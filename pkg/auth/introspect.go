package auth

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// introspection is an RFC 7662 §2.2 answer: the JWT claim names plus active.
type introspection struct {
	Active bool `json:"active"`
	accessClaims
}

// introspect asks the issuer about an opaque token (RFC 7662 §2.1), as this
// server's confidential client (HTTP Basic with the form-encoded id and
// secret, RFC 6749 §2.3.1). Every answer is fresh, so a token revoked at the
// issuer is refused on the next request. The issuer may leave out "iss"
// (the answer comes from it); "exp", "aud" and "sub" are required as for a
// JWT.
func (v *Verifier) introspect(ctx context.Context, endpoint, token string) (Principal, error) {
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "cannot build the introspection request"}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(v.cfg.ClientID), url.QueryEscape(v.cfg.ClientSecret))
	resp, err := v.httpc.Do(req)
	if err != nil {
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "the issuer's introspection endpoint cannot be reached; retry shortly"}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "the issuer refused this server's introspection credentials: check MCPFLEET_OAUTH_CLIENT_ID and MCPFLEET_OAUTH_CLIENT_SECRET"}
	case resp.StatusCode != http.StatusOK:
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "the issuer's introspection endpoint answered HTTP " + http.StatusText(resp.StatusCode) + "; retry shortly"}
	}
	var in introspection
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&in); err != nil {
		return Principal{}, &Error{Status: http.StatusServiceUnavailable, Description: "the issuer's introspection answer is not JSON"}
	}
	if !in.Active {
		return Principal{}, invalid("the token is not active (expired, revoked or unknown to the issuer)")
	}
	if in.Issuer == "" {
		in.Issuer = v.cfg.Issuer
	}
	return v.check(in.accessClaims)
}
