package identity

import (
	"context"
	"testing"
)

func TestUserID(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{
		{ctx, Local},
		{WithUser(ctx, ""), Local},
		{WithUser(ctx, "alice"), "alice"},
		{WithUser(WithUser(ctx, "alice"), "bob"), "bob"},
	} {
		if got := UserID(c.ctx); got != c.want {
			t.Errorf("UserID = %q, want %q", got, c.want)
		}
	}
}
