package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/httpguard"
	"github.com/mcpfleet/mcpfleet/pkg/sessions"
)

// rpcGate answers, before mcp-go, what mcp-go answers wrongly or not at all:
//   - GET whose Accept excludes text/event-stream: 406, not an SSE stream;
//   - a JSON-RPC batch: "batches are not supported" (MCP 2025-06-18 removed them);
//   - an id that is an object, array or boolean: -32600 with id null (JSON-RPC
//     2.0 §4: string, number or null), never echoed;
//   - legacy (2025-11-25) requests without Mcp-Session-Id: 400 (spec: "Servers
//     that require a session ID SHOULD respond to requests without an
//     Mcp-Session-Id header (other than initialization) with HTTP 400");
//   - an ended or unknown session id on GET or DELETE: 404 (mcp-go opens a
//     stream for any id and answers 200 to any DELETE), so made-up ids
//     cannot get around the session caps;
//   - a session of another bearer user: 404, as an unknown one (with Redis
//     the lookup also refreshes the session's idle TTL, a store failure is
//     503, and a live session this replica never saw is adopted: sessions.Manager);
//   - initialize params over lim.MaxInitParams (clientInfo, capabilities are
//     kept for the session's life), and new sessions past the caps.
//
// It decodes only the envelope, with encoding/json as mcp-go does, so both
// read the same id and method (case-insensitive keys, last duplicate wins).
func rpcGate(lim Limits, sess *sessions.Manager, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user := UserID(r.Context())
		legacy := !mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
		sid := r.Header.Get(server.HeaderKeySessionID)
		if legacy && sid != "" {
			var err error
			r, err = sess.Check(r, user, sid, next)
			if errors.Is(err, sessions.ErrUnknown) && r.Method == http.MethodPost {
				err = nil // initialize ignores the header; Validate answers the rest
			}
			if errors.Is(err, sessions.ErrNotOwner) || errors.Is(err, sessions.ErrUnknown) {
				http.Error(w, "Invalid session ID", http.StatusNotFound)
				return
			} else if err != nil {
				sessionRefused(w, nil, err)
				return
			}
		}
		switch r.Method {
		case http.MethodGet:
			if !acceptsEventStream(r.Header.Values("Accept")) {
				http.Error(w, "GET /mcp opens an SSE stream: send Accept: text/event-stream, or POST a JSON-RPC request", http.StatusNotAcceptable)
				return
			}
			if legacy && sid == "" {
				// mcp-go mints a session for a GET without one.
				var release func()
				var err error
				if r, release, err = sess.Reserve(r, user, nil); err != nil {
					sessionRefused(w, nil, err)
					return
				}
				defer release()
			}
		case http.MethodPost:
			data := bodyBytes(r)
			head, ok := parseHead(data)
			if !ok {
				break // not one JSON object: mcp-go answers the parse error
			}
			r = r.WithContext(context.WithValue(r.Context(), headKey{}, head))
			if head.batch {
				rpcError(w, http.StatusBadRequest, nil, mcp.INVALID_REQUEST,
					"JSON-RPC batches are not supported: send one JSON-RPC message per POST")
				return
			}
			if head.badID {
				rpcError(w, http.StatusBadRequest, nil, mcp.INVALID_REQUEST,
					"invalid request: id must be a string or a number")
				return
			}
			if !legacy && modernWithoutMeta(w, head) {
				return
			}
			if !legacy || head.modern || head.Method == "" {
				break // 2026-07-28 has no sessions; a client's response is mcp-go's
			}
			if head.Method != string(mcp.MethodInitialize) {
				if sid == "" {
					rpcError(w, http.StatusBadRequest, head.ID, mcp.INVALID_REQUEST,
						"Mcp-Session-Id header is required: send initialize first and repeat the session id it returns (or use protocol 2026-07-28, which has no sessions)")
					return
				}
				break
			}
			if n := len(head.Params); n > lim.MaxInitParams {
				rpcError(w, http.StatusBadRequest, head.ID, mcp.INVALID_PARAMS, fmt.Sprintf(
					"initialize params are %d bytes, at most %d: send a shorter clientInfo and capabilities", n, lim.MaxInitParams))
				return
			}
			var release func()
			var err error
			if r, release, err = sess.Reserve(r, user, head.Params); err != nil {
				sessionRefused(w, head.ID, err)
				return
			}
			defer release()
		}
		next.ServeHTTP(w, r)
	})
}

// sessionRefused answers a refused session (caps, store failure) with
// JSON-RPC's implementation-defined server error -32000.
func sessionRefused(w http.ResponseWriter, id json.RawMessage, err error) {
	rf, ok := err.(*sessions.Refusal)
	if !ok {
		rf = sessions.ErrStore
	}
	w.Header().Set("Retry-After", strconv.Itoa(rf.RetryAfter))
	rpcError(w, rf.Status, id, -32000, rf.Error())
}

// acceptsEventStream: no Accept header accepts anything (RFC 9110 §12.5.1).
func acceptsEventStream(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || params["q"] == "0" || params["q"] == "0.0" {
				continue
			}
			if mt == "text/event-stream" || mt == "text/*" || mt == "*/*" {
				return true
			}
		}
	}
	return false
}

// bodyBytes returns the body httpguard.Body read (without copying it), or reads it.
func bodyBytes(r *http.Request) []byte { return httpguard.Bytes(r) }

type rpcHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params inBody          `json:"params"`
	batch  bool
	badID  bool
	modern bool   // params._meta names a 2026-07-28+ protocol (mcp-go's era test)
	tool   string // params.name of a tools/call
	uri    string // params.uri of a resources/read
}

type headKey struct{}

// headOf returns the message head rpcGate parsed for this request, if any,
// so the gates after it need not decode the body again.
func headOf(r *http.Request) (rpcHead, bool) {
	h, ok := r.Context().Value(headKey{}).(rpcHead)
	return h, ok
}

// isBadID: an object, array or boolean id (JSON-RPC allows a string, a number or null).
func isBadID(id json.RawMessage) bool {
	if id = bytes.TrimSpace(id); len(id) > 0 {
		switch id[0] {
		case '{', '[', 't', 'f':
			return true
		}
	}
	return false
}

// inBody is a JSON value kept as a slice of the message it was read from:
// json.RawMessage would copy it, and a 4 MiB argument would be held twice.
// json.Unmarshal hands an Unmarshaler a slice of its input, and the message
// (a request body, a stdio line) is never written after it is read.
type inBody []byte

func (v *inBody) UnmarshalJSON(b []byte) error {
	*v = b
	return nil
}

// parseHead decodes the envelope of one message with encoding/json, as mcp-go
// does; ok is false when it is not a JSON object or array (mcp-go answers that).
func parseHead(data []byte) (h rpcHead, ok bool) {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 {
		return h, false
	}
	if t[0] == '[' {
		h.batch = true
		return h, json.Valid(t)
	}
	if t[0] != '{' || json.Unmarshal(t, &h) != nil {
		return h, false
	}
	h.badID = isBadID(h.ID)
	// Params are read as mcp-go reads them: the struct's keys matched without
	// case by encoding/json, _meta's keys exactly (mcp.Meta is a map), for
	// the era, a tool's name or a resource's URI.
	if len(h.Params) > 0 && h.Params[0] == '{' {
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
			Name string                     `json:"name"`
			URI  string                     `json:"uri"`
		}
		if json.Unmarshal(h.Params, &p) == nil {
			var version string
			_ = json.Unmarshal(p.Meta[mcp.MetaKeyProtocolVersion], &version)
			h.modern = mcp.IsModernProtocol(version)
			h.tool, h.uri = p.Name, p.URI
		}
	}
	return h, true
}
