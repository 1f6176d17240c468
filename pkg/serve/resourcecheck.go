package serve

import (
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// A resource handler's error reaches the client from mcp-go v1.2.1 as -32603
// (internal error), whatever it was: a malformed id in a resource URI would
// read as a server fault. A server that can tell a bad URI from a fault
// registers a check; both transports answer a resources/read whose URI the
// check refuses with -32602 (invalid params) and its message, before mcp-go
// sees it (the JSON-RPC 2.0 code for invalid method parameters).

// CheckResourceURIs registers check: a resources/read whose URI it refuses
// is answered -32602 with the error's text (which should name the fix).
func (r *Registry) CheckResourceURIs(check func(uri string) error) { r.resourceCheck = check }

// resourceRefusal is the -32602 answer to a resources/read whose URI the
// check refuses, or nil (anything else, or no check).
func (r *Registry) resourceRefusal(h rpcHead) []byte {
	if r == nil || r.resourceCheck == nil || h.Method != string(mcp.MethodResourcesRead) || len(h.ID) == 0 {
		return nil
	}
	if err := r.resourceCheck(h.uri); err != nil {
		return rpcErrorLine(h.ID, mcp.INVALID_PARAMS, err.Error())
	}
	return nil
}

// resourceGate answers such a resources/read over HTTP, from the head rpcGate
// parsed.
func resourceGate(r *Registry, next http.Handler) http.Handler {
	if r.resourceCheck == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if h, ok := headOf(req); ok {
			if line := r.resourceRefusal(h); line != nil {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(line)
				return
			}
		}
		next.ServeHTTP(w, req)
	})
}
