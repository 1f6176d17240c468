package toolkit

import (
	"context"
	"testing"
	"time"
)

// A written progress notification releases the wait for its token; another
// token's does not.
func TestDeliveryWaitsForItsToken(t *testing.T) {
	d := NewDelivery()
	s := d.NewScope(context.Background())
	d.add(`"a"`, 1)
	d.add(`7`, 1)
	s.Wrote([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":7}}` + "\n"))
	if !d.wait(context.Background(), `7`, time.Second) {
		t.Fatal("token 7 was written but still pending")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d.wait(ctx, `"a"`, time.Second) {
		t.Fatal(`token "a" was never written`)
	}
	// An SSE event carries the same message after "data: ".
	s.Wrote([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"a\",\"progress\":2}}\n\n"))
	if !d.wait(context.Background(), `"a"`, time.Second) {
		t.Fatal(`token "a" still pending after its SSE event`)
	}
}

// Only the response to a cancelled id is dropped, once.
func TestScopeDropsOnlyCancelledResponses(t *testing.T) {
	s := NewDelivery().NewScope(context.Background())
	s.cancelled = map[string]bool{"5": true}
	s.dropping.Store(1)
	if s.Drop([]byte(`{"jsonrpc":"2.0","id":6,"result":{}}`)) || s.Drop([]byte(`{"jsonrpc":"2.0","method":"x","id":5}`)) {
		t.Fatal("dropped a message that is not the cancelled response")
	}
	if !s.Drop([]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)) {
		t.Fatal("the cancelled request's response was not dropped")
	}
	if s.Drop([]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)) {
		t.Fatal("dropped a second response to the same id")
	}
}

// FuzzScope: whatever a transport writes, a scope never panics.
func FuzzScope(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":5,"result":{}}`, `{"method":"notifications/progress","params":{"progressToken":[1]}}`, "event: message\ndata: {\n\n", `}{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		s := NewDelivery().NewScope(context.Background())
		s.cancelled = map[string]bool{"5": true}
		s.dropping.Store(1)
		s.Drop([]byte(p))
		s.Wrote([]byte(p))
	})
}
