package auth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// MetadataURL is where this resource's Protected Resource Metadata is served:
// the well-known path with the resource's path appended (RFC 9728 §3.1).
func MetadataURL(resource string) string {
	u, _ := url.Parse(resource)
	u.Path = server.ProtectedResourceMetadataPath(resource)
	u.RawPath = ""
	return u.String()
}

// MetadataHandler serves the Protected Resource Metadata (mcp-go's handler):
// the resource, its issuer, the scopes a client should ask for first (the
// read scope: MCP has scopes_supported be the minimal set, wider scopes come
// through step-up) and the header as the only way to send a token.
func MetadataHandler(cfg Config, serverName string) http.Handler {
	return server.NewProtectedResourceMetadataHandler(server.ProtectedResourceMetadataConfig{
		Resource:               cfg.Resource,
		AuthorizationServers:   []string{cfg.Issuer},
		ScopesSupported:        []string{ReadScope(serverName)},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           serverName,
	})
}

// MetadataPaths are the paths to mount MetadataHandler at: the path-suffixed
// form for a resource with a path, and the bare well-known path, which
// clients of the 2025-03-26 revision and some proxies try.
func MetadataPaths(resource string) []string {
	p := server.ProtectedResourceMetadataPath(resource)
	if p == server.WellKnownProtectedResourcePath {
		return []string{p}
	}
	return []string{p, server.WellKnownProtectedResourcePath}
}

// Challenge writes the WWW-Authenticate header for a refusal (RFC 6750 §3,
// RFC 9728 §5.1): resource_metadata (realm="mcpfleet" for a resource ""
// without OAuth, whose tokens come from MCPFLEET_AUTH_TOKENS or `mcpfleet
// token issue`), the scope the request needs, and error/error_description
// when a token was sent.
func Challenge(h http.Header, resource string, e *Error) {
	parts := []string{`realm="mcpfleet"`}
	if resource != "" {
		parts[0] = `resource_metadata="` + MetadataURL(resource) + `"`
	}
	if e.Scope != "" {
		parts = append(parts, `scope="`+e.Scope+`"`)
	}
	if e.Code != "" {
		parts = append(parts, `error="`+e.Code+`"`)
		parts = append(parts, `error_description="`+quoteSafe(e.Description)+`"`)
	}
	h.Set("WWW-Authenticate", "Bearer "+strings.Join(parts, ", "))
}

// quoteSafe keeps a description within RFC 6750's allowed characters
// (%x20-21 / %x23-5B / %x5D-7E): no quotes or backslashes.
func quoteSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r < 0x20 || r > 0x7e {
			return '\''
		}
		return r
	}, s)
}
