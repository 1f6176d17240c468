package serve

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// oauthFromEnv reads the resource-server settings. Both MCPFLEET_OAUTH_ISSUER
// and MCPFLEET_PUBLIC_URL, or neither; the introspection client is optional.
func oauthFromEnv() (*auth.Config, error) {
	iss, pub := os.Getenv("MCPFLEET_OAUTH_ISSUER"), os.Getenv("MCPFLEET_PUBLIC_URL")
	if iss == "" && pub == "" {
		return nil, nil
	}
	if iss == "" || pub == "" {
		return nil, errors.New("OAuth needs both MCPFLEET_OAUTH_ISSUER (your identity provider's issuer URL) and MCPFLEET_PUBLIC_URL (this server's URL as clients reach it, e.g. https://mcp.example.com/mcp)")
	}
	cfg := &auth.Config{
		Issuer:       iss,
		Resource:     strings.TrimSuffix(pub, "/"),
		Audience:     os.Getenv("MCPFLEET_OAUTH_AUDIENCE"),
		ClientID:     os.Getenv("MCPFLEET_OAUTH_CLIENT_ID"),
		ClientSecret: os.Getenv("MCPFLEET_OAUTH_CLIENT_SECRET"),
	}
	if _, err := auth.New(*cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// authenticate is the bearer check in front of /mcp. A token from
// MCPFLEET_AUTH_TOKENS passes as before (its user may call every tool);
// with OAuth on, any other token must be an access token of the configured
// issuer for this server, holding at least the server's read scope. The
// Protected Resource Metadata is mounted on mux.
func authenticate(b *Built, mux *http.ServeMux, next http.Handler) http.Handler {
	static := bearerAuth(b.Options.AuthTokens, next)
	if b.Options.OAuth == nil {
		return static
	}
	v, err := auth.New(*b.Options.OAuth)
	if err != nil { // ParseOptions checked the same config
		panic(err)
	}
	cfg := v.Config()
	name := "mcp"
	if b.Registry != nil && b.Registry.name != "" {
		name = b.Registry.name
	}
	meta := auth.MetadataHandler(cfg, name)
	for _, p := range auth.MetadataPaths(cfg.Resource) {
		mux.Handle(p, meta)
	}
	tokens := make([][]byte, 0, len(b.Options.AuthTokens))
	for t := range b.Options.AuthTokens {
		tokens = append(tokens, []byte(t))
	}
	read := auth.ReadScope(name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := bearerToken(r)
		if tok != "" && isStatic(tokens, tok) {
			static.ServeHTTP(w, r)
			return
		}
		p, err := v.Verify(r.Context(), tok)
		if err == nil && !p.Has(read) {
			err = &auth.Error{Status: http.StatusForbidden, Code: "insufficient_scope", Description: "the token lacks " + read}
		}
		var ae *auth.Error
		if errors.As(err, &ae) {
			ae.Scope = read
			oauthRefuse(w, cfg.Resource, ae)
			return
		}
		ctx := auth.WithPrincipal(WithUser(r.Context(), p.UserID()), p)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func bearerToken(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

func isStatic(tokens [][]byte, tok string) bool {
	found := false
	for _, t := range tokens {
		if subtle.ConstantTimeCompare([]byte(tok), t) == 1 {
			found = true
		}
	}
	return found
}

func oauthRefuse(w http.ResponseWriter, resource string, e *auth.Error) {
	if e.Status != http.StatusServiceUnavailable {
		auth.Challenge(w.Header(), resource, e)
	} else {
		w.Header().Set("Retry-After", "10")
	}
	refuse(w, e.Status, e.Description)
}

// scopeGate answers a tools/call the token's scopes do not cover with 403
// insufficient_scope naming the scope the tool needs, so the client can step
// up (MCP basic/authorization, "Scope Challenge Handling"). Only OAuth
// callers carry a principal; everyone else passes.
func scopeGate(b *Built, next http.Handler) http.Handler {
	if b.Options.OAuth == nil {
		return next
	}
	resource := strings.TrimSuffix(b.Options.OAuth.Resource, "/")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := auth.FromContext(r.Context())
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		h, ok := headOf(r)
		if !ok && r.Method == http.MethodPost {
			h, ok = parseHead(bodyBytes(r))
		}
		if ok && h.Method == string(mcp.MethodToolsCall) && h.tool != "" {
			if need := b.Registry.scopeOf(h.tool); need != "" && !p.Has(need) {
				oauthRefuse(w, resource, &auth.Error{Status: http.StatusForbidden, Code: "insufficient_scope", Scope: need,
					Description: "tool " + h.tool + " needs the scope " + need + "; authorize again with it"})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// toolScope is the scope a tool needs: the server's write scope when its
// readOnlyHint is not true (the same rule as --read-only) or it asks for it,
// else the read scope.
func toolScope(server string, t toolkit.Tool) string {
	ro := t.Tool.Annotations.ReadOnlyHint
	if t.NeedsWrite || ro == nil || !*ro {
		return auth.WriteScope(server)
	}
	return auth.ReadScope(server)
}

// scopeOf is the scope the named tool (or alias of a tool) needs; "" for a
// name not served.
func (r *Registry) scopeOf(name string) string {
	if r == nil {
		return ""
	}
	if a, ok := r.aliases[name]; ok {
		name = a.Target
	}
	return r.scopes[name]
}

// scopeFilter shows an OAuth caller only the tools its token can call, in
// tools/list and at call time (mcp-go applies tool filters to both).
func scopeFilter(r **Registry) func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	return func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
		p, ok := auth.FromContext(ctx)
		if !ok || *r == nil {
			return tools
		}
		out := tools[:0:0]
		for _, t := range tools {
			if need := (*r).scopeOf(t.Name); need == "" || p.Has(need) {
				out = append(out, t)
			}
		}
		return out
	}
}
