package serve

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
)

// LocalUser is identity.Local: the caller on stdio.
const LocalUser = identity.Local

// WithUser is identity.WithUser, for wiring code that already imports serve.
//
// Deprecated: domain code imports pkg/identity instead of the transports.
func WithUser(ctx context.Context, user string) context.Context { return identity.WithUser(ctx, user) }

// UserID is identity.UserID, for wiring code that already imports serve.
//
// Deprecated: domain code imports pkg/identity instead of the transports.
func UserID(ctx context.Context) string { return identity.UserID(ctx) }
