package sessions

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// TestStoresAgree: both Stores keep the same caps, owners and endings, so a
// server behaves the same with and without Redis.
func TestStoresAgree(t *testing.T) {
	stores := map[string]func(t *testing.T) Store{
		"memory": func(*testing.T) Store { return NewMemory(3, 2) },
		"redis":  func(t *testing.T) Store { return NewRedis(redistest.Start(t), time.Minute, 3, 2) },
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := mk(t)
			refused := func(err error, status int) {
				t.Helper()
				var rf *Refusal
				if !errors.As(err, &rf) || rf.Status != status || rf.RetryAfter == 0 {
					t.Fatalf("got %v, want a refusal with status %d", err, status)
				}
			}
			a1, err := s.Reserve(ctx, "alice", []byte(`{"a":1}`))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Reserve(ctx, "alice", nil); err != nil {
				t.Fatal(err)
			}
			_, err = s.Reserve(ctx, "alice", nil)
			refused(err, http.StatusTooManyRequests)
			if _, err := s.Reserve(ctx, "bob", nil); err != nil {
				t.Fatal(err)
			}
			_, err = s.Reserve(ctx, "carol", nil)
			refused(err, http.StatusServiceUnavailable)

			if owner, _, ok, err := s.Lookup(ctx, a1); !ok || err != nil || owner != "alice" {
				t.Fatalf("lookup: %q %v %v", owner, ok, err)
			}
			if err := s.End(ctx, a1); err != nil {
				t.Fatal(err)
			}
			if _, _, ok, _ := s.Lookup(ctx, a1); ok {
				t.Fatal("an ended session is still live")
			}
			if _, _, ok, _ := s.Lookup(ctx, "mcp-session-unknown"); ok {
				t.Fatal("an unknown id is live")
			}
			if _, err := s.Reserve(ctx, "carol", nil); err != nil {
				t.Fatalf("ending a session did not free its slot: %v", err)
			}
		})
	}
}
