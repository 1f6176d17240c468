package serve

import (
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// removedIn20260728 are the methods protocol 2026-07-28 removed (its
// changelog; mcp-go's protocol-2026-07-28 migration notes): a 2026-07-28
// request for one is -32601 with or without request _meta, on every transport.
var removedIn20260728 = map[string]bool{
	string(mcp.MethodPing):                 true,
	string(mcp.MethodSetLogLevel):          true,
	string(mcp.MethodResourcesSubscribe):   true,
	string(mcp.MethodResourcesUnsubscribe): true,
}

// modernWithoutMeta answers, for a POST whose MCP-Protocol-Version header is
// 2026-07-28 or later but whose body carries no request _meta, what mcp-go
// would refuse with 400 "missing or invalid _meta field":
//   - a notification: 202 Accepted. The required _meta belongs to requests
//     (2026-07-28 streamable-http, "Request Metadata"); that revision defines
//     no client notification over HTTP, closing a response stream is the
//     cancellation ("Sending Messages", note), so a notifications/cancelled
//     the Go SDK still posts after closing a stream is accepted and dropped.
//   - a removed method (ping, ...): 404 and -32601, as mcp-go answers it with
//     _meta ("If the server does not implement the requested RPC method, it
//     MUST respond with 404 Not Found and a JSON-RPC error with code -32601").
//
// It reports whether it answered.
func modernWithoutMeta(w http.ResponseWriter, head rpcHead) bool {
	if head.modern || head.Method == "" {
		return false
	}
	switch {
	case len(head.ID) == 0:
		w.WriteHeader(http.StatusAccepted)
		return true
	case removedIn20260728[head.Method]:
		rpcError(w, http.StatusNotFound, head.ID, mcp.METHOD_NOT_FOUND,
			fmt.Sprintf("%q was removed in protocol version %s", head.Method, mcp.ProtocolVersion20260728))
		return true
	}
	return false
}

// removedMethod answers a 2026-07-28 request (with request _meta) for a
// method that revision removed: 404 and -32601 (2026-07-28 streamable-http:
// "If the server does not implement the requested RPC method, it MUST
// respond with 404 Not Found and a JSON-RPC error with code -32601"; the
// conformance suite's server-stateless scenario checks resources/subscribe).
// mcp-go v1.2.1 answers ping so itself, but a resources/subscribe reaches
// the server's hooks, which refuse it with 400 and -32600 (over stdio,
// -32600 too: stdioIn answers removedLine instead).
func removedMethod(w http.ResponseWriter, head rpcHead) bool {
	line := removedLine(head)
	if line == nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write(line)
	return true
}

// removedLine is the -32601 answer to a 2026-07-28 request (request _meta
// names the revision) for a method it removed, or nil: the one check both
// transports make.
func removedLine(head rpcHead) []byte {
	if len(head.ID) == 0 || !head.modern || !removedIn20260728[head.Method] {
		return nil
	}
	return rpcErrorLine(head.ID, mcp.METHOD_NOT_FOUND,
		fmt.Sprintf("%q was removed in protocol version %s", head.Method, mcp.ProtocolVersion20260728))
}
