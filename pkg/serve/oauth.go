package serve

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/identity"
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

// authenticate is the bearer check in front of /mcp (auth.Gate): static
// MCPFLEET_AUTH_TOKENS, issued tokens looked up in the shared store on every
// request (MCPFLEET_AUTH_ISSUED), OAuth access tokens of the configured
// issuer. The Protected Resource Metadata is mounted on mux.
func authenticate(b *Built, mux *http.ServeMux, next http.Handler) http.Handler {
	g := gateOf(b)
	if b.Options.OAuth != nil {
		v, err := auth.New(*b.Options.OAuth)
		if err != nil { // ParseOptions checked the same config
			panic(err)
		}
		cfg := v.Config()
		g.OAuth, g.Resource = v, cfg.Resource
		meta := auth.MetadataHandler(cfg, serverName(b))
		for _, p := range auth.MetadataPaths(cfg.Resource) {
			mux.Handle(p, meta)
		}
	}
	if b.Issued != nil {
		g.Issued = issued.NewChecker(b.Issued, serverName(b), func(err error) {
			b.Log.Warn().Err(err).Msg("issued tokens cannot be checked")
		})
	}
	return g.Handler(next)
}

// gateOf is the gate's configuration without its verifiers, which is all
// scopeGate needs to refuse.
func gateOf(b *Built) *auth.Gate {
	g := &auth.Gate{Static: b.Options.AuthTokens, Scope: auth.ReadScope(serverName(b)), Refuse: refuse, WithUser: identity.WithUser}
	if b.Options.OAuth != nil {
		g.Resource = strings.TrimSuffix(b.Options.OAuth.Resource, "/")
	}
	return g
}

func serverName(b *Built) string {
	if b.Registry != nil && b.Registry.name != "" {
		return b.Registry.name
	}
	return "mcp"
}

// issuedStore is where the server reads issued tokens (MCPFLEET_AUTH_ISSUED):
// Redis when replicas share one, else the state file, the same place
// `mcpfleet token` writes to. Never with MCPFLEET_STATE=memory: the CLI
// could not reach a process's memory.
func issuedStore(ctx context.Context, r *Registry, o Options) (issued.Store, error) {
	if !o.AuthIssued || o.Transport == "stdio" {
		return nil, nil
	}
	if r.Redis != nil {
		return issued.NewRedis(r.Redis, r.name), nil
	}
	db, err := r.Store()
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errors.New("MCPFLEET_AUTH_ISSUED=1 needs the tokens' shared store: the state file (unset MCPFLEET_STATE=memory) or MCPFLEET_REDIS_URL")
	}
	return issued.NewStore(ctx, db)
}

// scopeGate answers a tools/call the token's scopes do not cover with 403
// insufficient_scope naming the scope the tool needs, so the client can step
// up (MCP basic/authorization, "Scope Challenge Handling"). Only OAuth and
// issued-token callers carry a principal; everyone else passes.
func scopeGate(b *Built, next http.Handler) http.Handler {
	if b.Options.OAuth == nil && b.Issued == nil {
		return next
	}
	g := gateOf(b)
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
				g.Deny(w, &auth.Error{Status: http.StatusForbidden, Code: "insufficient_scope", Scope: need,
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

// scopeFilter shows an OAuth or issued-token caller only the tools its token can call, in
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
