package sessions

import (
	"bytes"
	"context"
	"net/http"
)

// adopt makes this replica hold mcp-go state for a live session another
// replica initialized. mcp-go v1.2.1 keeps a legacy session's state in the
// process that saw its initialize (server.sessions: the registered session
// with clientInfo, client capabilities and the negotiated protocol version;
// per-session log level, tools and resources; the idle clock). A replica
// that never saw the initialize serves a valid foreign id with a fresh,
// unregistered session of empty client capabilities (handlePost's
// ephemeral session), so a tool that asks for elicitation would see none.
// adopt replays the session's stored initialize params through mcp-go with
// Generate returning the same id: mcp-go then registers the session here as
// it did on the first replica. Concurrent first uses adopt once.
//
// Sticky routing would avoid the replay, but would need the load balancer to
// know the session header; adoption works behind any of them.
func (m *Manager) adopt(r *http.Request, sid string, init []byte, next http.Handler) {
	_, _, _ = m.flight.Do(sid, func() (any, error) {
		if m.isLocal(sid) {
			return nil, nil
		}
		params := init
		if len(bytes.TrimSpace(params)) == 0 {
			params = []byte("{}") // the session began with a GET: no initialize params
		}
		body := make([]byte, 0, len(params)+64)
		body = append(body, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":`...)
		body = append(append(body, params...), '}')
		req, err := http.NewRequestWithContext(context.WithValue(r.Context(), adoptKey{}, sid), http.MethodPost, r.URL.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Host, req.RemoteAddr = r.Host, r.RemoteAddr
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := &discardResponse{header: http.Header{}}
		next.ServeHTTP(rec, req)
		if !m.isLocal(sid) || rec.status >= 300 {
			// The request still runs, on mcp-go's ephemeral session.
			m.log.Warn().Int("status", rec.status).Msg("could not adopt a session initialized on another replica")
		}
		return nil, nil
	})
}

// adoptKey marks the initialize replayed to adopt a foreign session.
type adoptKey struct{}

// discardResponse takes the replayed initialize's answer, which no client waits for.
type discardResponse struct {
	header http.Header
	status int
}

func (d *discardResponse) Header() http.Header { return d.header }

func (d *discardResponse) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	return len(p), nil
}

func (d *discardResponse) WriteHeader(status int) {
	if d.status == 0 {
		d.status = status
	}
}
