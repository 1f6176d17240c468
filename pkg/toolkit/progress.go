package toolkit

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// Why this file exists: mcp-go queues a notification on the session's channel
// and a separate goroutine writes it, while the tool's result is written
// directly. A progress notification sent just before a handler returns could
// therefore reach the client after the result (over stdio), or be dropped
// (over HTTP, when the response closes the stream first). The MCP spec ends
// progress at completion, and the official TypeScript client reports a
// progress notification for a finished request as an error ("unknown
// token"). Progress therefore waits until the transport wrote its
// notification: every progress a tool sends precedes its result.
//
// The transport (pkg/serve) gives each writer a Scope: the writer reports each
// message it wrote (Scope.Wrote) and asks whether a response must be dropped
// (Scope.Drop) because the client cancelled its request; the MCP spec says a
// cancelled request gets no response.

// deliveryWait bounds how long one progress notification may hold its tool:
// a client that stops reading must not hang the call.
const deliveryWait = 2 * time.Second

// Delivery counts, per progress token, the notifications sent but not yet
// written; one is shared by every writer of a served MCP server, since mcp-go
// may write a session's notification on another stream of it (an HTTP GET).
type Delivery struct {
	mu      sync.Mutex
	pending map[string]int
	changed chan struct{} // closed (and replaced) whenever pending shrinks
}

// NewDelivery returns an empty Delivery.
func NewDelivery() *Delivery {
	return &Delivery{pending: map[string]int{}, changed: make(chan struct{})}
}

func (d *Delivery) add(key string, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending[key] += n; d.pending[key] <= 0 {
		delete(d.pending, key)
	}
	if n < 0 {
		close(d.changed)
		d.changed = make(chan struct{})
	}
}

// wait returns once nothing is pending for key, ctx ends or limit passes.
func (d *Delivery) wait(ctx context.Context, key string, limit time.Duration) bool {
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		d.mu.Lock()
		n, ch := d.pending[key], d.changed
		d.mu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-t.C:
			return false
		}
	}
}

// Scope is one writer of a transport: stdio's stdout, or one HTTP response.
type Scope struct {
	d         *Delivery
	transport context.Context // ends when the client or the server goes away
	dropping  atomic.Int32
	mu        sync.Mutex
	cancelled map[string]bool // JSON ids of requests the client cancelled
}

// NewScope returns a scope of d for a writer that serves while transport lives.
func (d *Delivery) NewScope(transport context.Context) *Scope {
	return &Scope{d: d, transport: transport}
}

type scopeKey struct{}

// WithScope returns ctx carrying s, for the calls answered through its writer.
func WithScope(ctx context.Context, s *Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

var (
	progressMethod = []byte(`"method":"notifications/progress"`)
	responseHead   = []byte(`{"jsonrpc":"2.0","id":`)
)

// message is the part of a JSON-RPC message a scope looks at.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"params"`
}

// decode reads the JSON message in p: a stdio line, or an SSE event whose
// data line holds it.
func decode(p []byte) (rpcMessage, bool) {
	i, j := bytes.IndexByte(p, '{'), bytes.LastIndexByte(p, '}')
	var m rpcMessage
	if i < 0 || j < i || json.Unmarshal(p[i:j+1], &m) != nil {
		return m, false
	}
	return m, true
}

// IsProgress reports whether p (a message as a transport writes it) is a
// progress notification.
func IsProgress(p []byte) bool { return bytes.Contains(p, progressMethod) }

// Wrote is told each message the scope's writer wrote (or failed to write: a
// dead client must not hold a tool).
func (s *Scope) Wrote(p []byte) {
	if s == nil || !bytes.Contains(p, progressMethod) {
		return
	}
	if m, ok := decode(p); ok && m.Method == "notifications/progress" {
		s.d.add(string(m.Params.ProgressToken), -1)
	}
}

// Drop reports whether p is the response to a request the client cancelled,
// which the writer must then not write.
func (s *Scope) Drop(p []byte) bool {
	if s == nil || s.dropping.Load() == 0 || !bytes.Contains(p, responseHead) {
		return false
	}
	m, ok := decode(p)
	if !ok || m.Method != "" || len(m.ID) == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cancelled[string(m.ID)] {
		return false
	}
	delete(s.cancelled, string(m.ID))
	s.dropping.Add(-1)
	return true
}

// CallEnded is an mcp-go AfterCallTool hook: a call whose context ended while
// its transport still lives was cancelled by the client
// (notifications/cancelled), so its response is dropped.
func CallEnded(ctx context.Context, id any, _ *mcp.CallToolRequest, _ any) {
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	if s == nil || ctx.Err() == nil || s.transport.Err() != nil {
		return
	}
	key, err := json.Marshal(id)
	if err != nil {
		return
	}
	// A streamable HTTP response that has not become an event stream would
	// be written as a JSON body, which cannot be left out; as a stream it
	// simply ends without the response event.
	if up, ok := server.ClientSessionFromContext(ctx).(server.SessionWithStreamableHTTPConfig); ok {
		up.UpgradeToSSEWhenReceiveNotification()
	}
	s.mu.Lock()
	if s.cancelled == nil {
		s.cancelled = map[string]bool{}
	}
	if !s.cancelled[string(key)] {
		s.cancelled[string(key)] = true
		s.dropping.Add(1)
	}
	s.mu.Unlock()
}

// Progress sends notifications/progress for the call running in ctx, when its
// request carries a progress token (otherwise it does nothing). Served through
// pkg/serve, it returns once the notification is written, so a tool's last
// progress precedes its result. progress must grow from call to call (MCP);
// total and message are left out when zero.
func Progress(ctx context.Context, progress, total float64, message string) {
	meta := Request(ctx).Params.Meta
	srv := server.ServerFromContext(ctx)
	if meta == nil || meta.ProgressToken == nil || srv == nil {
		return
	}
	params := map[string]any{"progressToken": meta.ProgressToken, "progress": progress}
	if total > 0 {
		params["total"] = total
	}
	if message != "" {
		params["message"] = message
	}
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	var key string
	if s != nil {
		// The key is the token as mcp-go will write it, so the writer's
		// report matches it byte for byte.
		raw, err := json.Marshal(meta.ProgressToken)
		if err != nil {
			s = nil
		}
		key = string(raw)
	}
	if s != nil {
		s.d.add(key, 1)
	}
	if err := srv.SendNotificationToClient(ctx, "notifications/progress", params); err != nil {
		if s != nil {
			s.d.add(key, -1)
		}
		zerolog.Ctx(ctx).Debug().Err(err).Msg("progress notification not sent")
		return
	}
	if s != nil && !s.d.wait(ctx, key, deliveryWait) {
		zerolog.Ctx(ctx).Debug().Msg("progress notification not confirmed written in time")
	}
}
