package sessions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// TestExpiredSessionStreamEnds: when mcp-go's idle sweeper expires a
// session (it calls Terminate through the resolver with no request), the
// session's open GET stream ends; another session's stream stays open.
func TestExpiredSessionStreamEnds(t *testing.T) {
	m := NewManager(NewMemory(10, 10), zerolog.Nop())
	opened := make(chan string, 2)
	ended := make(chan string, 2)
	stream := m.EndStreams(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get(server.HeaderKeySessionID)
		opened <- sid
		<-r.Context().Done() // as mcp-go's GET handler: open until the request's context ends
		ended <- sid
	}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // the stream the sweeper leaves alone ends with the test
	for _, sid := range []string{"idle", "busy"} {
		req := httptest.NewRequest(http.MethodGet, "/mcp", nil).WithContext(ctx)
		req.Header.Set(server.HeaderKeySessionID, sid)
		go stream.ServeHTTP(httptest.NewRecorder(), req)
		<-opened
	}
	if _, err := m.ResolveSessionIdManager(nil).Terminate("idle"); err != nil { // the sweeper's call
		t.Fatal(err)
	}
	select {
	case sid := <-ended:
		if sid != "idle" {
			t.Fatalf("the stream of %q ended, want the expired session's", sid)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the expired session's GET stream is still open")
	}
	select {
	case sid := <-ended:
		t.Fatalf("the stream of live session %q ended too", sid)
	default:
	}
}
