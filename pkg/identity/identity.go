// Package identity is who a request comes from: the user id per-user state
// is keyed on. pkg/serve puts it in each request's context (the bearer
// token's or OAuth principal's user on HTTP, Local on stdio); domain code
// reads it here without importing the transports.
package identity

import "context"

type userKey struct{}

// Local is the caller on stdio: the process owner, who configured the env.
const Local = "local"

// WithUser returns ctx carrying the authenticated user id.
func WithUser(ctx context.Context, user string) context.Context {
	return context.WithValue(ctx, userKey{}, user)
}

// UserID is the caller of the current request: the bearer token's user on
// HTTP, Local on stdio or when no auth is configured. Key per-user state on
// it, never on the MCP session id (2026-07-28 clients have none).
func UserID(ctx context.Context) string {
	if u, ok := ctx.Value(userKey{}).(string); ok && u != "" {
		return u
	}
	return Local
}
