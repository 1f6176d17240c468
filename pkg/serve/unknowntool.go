package serve

import (
	"net/http"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// An unknown tool is a JSON-RPC error (-32602) from mcp-go, worded
// "tool 'x' not found: tool not found". The model acts on it better when it
// names the nearest tools, so both transports answer it before mcp-go (same
// code, same id): unknownToolGate on HTTP, stdioIn on stdio.

// toolNames is what a server serves, for "did you mean".
type toolNames struct {
	names []string
	set   map[string]bool
}

func newToolNames(r *Registry) toolNames {
	t := toolNames{set: map[string]bool{}}
	for _, tl := range r.Tools() {
		t.names = append(t.names, tl.Name())
		t.set[tl.Name()] = true
	}
	for name := range r.aliases { // callable, though not listed
		t.set[name] = true
	}
	return t
}

// message is the reworded error for an unknown tool name.
func (t toolNames) message(name string) string {
	msg := "unknown tool " + strconv.Quote(name)
	if s := toolkit.Closest(name, t.names); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return msg + " (tools/list lists this server's tools)"
}

// unknown: h is a tools/call, with an id, of a tool this server does not serve.
func (t toolNames) unknown(h rpcHead) bool {
	return h.Method == string(mcp.MethodToolsCall) && len(h.ID) > 0 && h.tool != "" && !t.set[h.tool]
}

// unknownToolGate answers an HTTP tools/call for a tool the server does not
// serve itself, with the same code mcp-go would use and the nearest names.
func unknownToolGate(tools toolNames, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// rpcGate has parsed the head already; standing alone, the gate
		// parses it the same way.
		h, ok := headOf(r)
		if !ok && r.Method == http.MethodPost {
			h, ok = parseHead(bodyBytes(r))
		}
		if ok && tools.unknown(h) {
			rpcError(w, http.StatusOK, h.ID, mcp.INVALID_PARAMS, tools.message(h.tool))
			return
		}
		next.ServeHTTP(w, r)
	})
}
