package sessions

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/redis/go-redis/v9"
)

// endedChannel carries the ids of 2025-11-25 sessions a DELETE ended,
// to every replica sharing the Redis (ids are random: one channel serves
// every server).
const endedChannel = "mcpfleet:sessions/ended"

// EndStreams ends a 2025-11-25 session's GET streams when the session ends:
// by a DELETE, or by idle expiry (mcp-go's sweeper calls Terminate, which
// ends the streams held here). mcp-go v1.2.1 answers the DELETE (200) and refuses the
// session's later POSTs (404) but leaves its GET stream open until the client
// goes: one leaked stream per ended session. The spec: "the client SHOULD
// send an HTTP DELETE ... to explicitly terminate the session" (2025-11-25
// basic/transports, Session Management), after which nothing of the session
// goes on. With Redis (rdb not nil) a DELETE answered by one replica ends the
// session's streams on every replica: the ids go through Redis pub/sub, which
// a replica listens to while it holds GET streams. An expired session's
// streams close the same way: mcp-go v1.2.1's sweeper frees the session's
// state but leaves its GET stream open, pinging a session no request can use.
func (m *Manager) EndStreams(rdb *redis.Client, next http.Handler) http.Handler {
	st := m.streams
	st.rdb = rdb
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get(server.HeaderKeySessionID)
		switch {
		case sid == "":
			next.ServeHTTP(w, r)
		case r.Method == http.MethodGet:
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			st.add(sid, &cancel)
			defer st.remove(sid, &cancel)
			next.ServeHTTP(w, r.WithContext(ctx))
		case r.Method == http.MethodDelete:
			rec := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			if rec.status == 0 || rec.status == http.StatusOK {
				st.end(sid)
				if rdb != nil {
					ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 2*time.Second)
					_ = rdb.Publish(ctx, endedChannel, sid).Err() // best effort: the session is gone either way
					cancel()
				}
			}
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// getStreams are this replica's open GET streams by session id.
type getStreams struct {
	rdb  *redis.Client
	mu   sync.Mutex
	byID map[string]map[*context.CancelFunc]struct{}
	open int
	stop context.CancelFunc // ends the Redis subscription
}

func (g *getStreams) add(sid string, cancel *context.CancelFunc) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byID[sid] == nil {
		g.byID[sid] = map[*context.CancelFunc]struct{}{}
	}
	g.byID[sid][cancel] = struct{}{}
	if g.open++; g.open == 1 && g.rdb != nil {
		ctx, stop := context.WithCancel(context.Background())
		g.stop = stop
		ps := g.rdb.Subscribe(ctx, endedChannel)
		// Listening before the stream is served: a DELETE right after is heard.
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, _ = ps.Receive(rctx)
		cancel()
		go func() {
			defer ps.Close()
			ch := ps.Channel()
			for {
				select {
				case <-ctx.Done():
					return
				case msg, ok := <-ch:
					if !ok {
						return
					}
					g.end(msg.Payload)
				}
			}
		}()
	}
}

func (g *getStreams) remove(sid string, cancel *context.CancelFunc) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.byID[sid], cancel)
	if len(g.byID[sid]) == 0 {
		delete(g.byID, sid)
	}
	if g.open--; g.open == 0 && g.stop != nil {
		g.stop()
		g.stop = nil
	}
}

// end closes every GET stream of sid held here.
func (g *getStreams) end(sid string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for cancel := range g.byID[sid] {
		(*cancel)()
	}
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
