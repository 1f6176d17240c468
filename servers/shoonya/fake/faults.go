package fake

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"time"
)

// FaultKind names a switchable failure.
type FaultKind string

const (
	// FaultLatency delays the reply by Fault.Latency, then answers normally.
	FaultLatency FaultKind = "latency"
	// FaultTimeout processes the request (a PlaceOrder is booked and in the
	// ledger), then never answers: it holds the connection until the client
	// gives up, Fault.Hang passes, or the server closes.
	FaultTimeout FaultKind = "timeout"
	// FaultCloseConn processes the request, then closes the TCP connection
	// without any response.
	FaultCloseConn FaultKind = "close"
	// FaultStatus answers HTTP Fault.Status (default 502) with an HTML body
	// (or Fault.Body) without reaching the OMS.
	FaultStatus FaultKind = "status"
	// FaultMalformed processes the request, then answers 200 with broken JSON.
	FaultMalformed FaultKind = "malformed"
	// FaultTruncated processes the request, then sends a Content-Length
	// larger than the body and closes mid-body.
	FaultTruncated FaultKind = "truncated"
	// FaultSessionExpired answers "Session Expired : Invalid Session Key"
	// whatever the token (the session itself stays valid).
	FaultSessionExpired FaultKind = "session_expired"
	// FaultRateLimit answers HTTP 429.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultRefuse answers 200 {"stat":"Not_Ok","emsg":Fault.Body} without
	// reaching the OMS: the shape of every documented Noren refusal
	// (source: Shoonya-Dev/ShoonyaApi-py README failure samples).
	FaultRefuse FaultKind = "refuse"
	// FaultWSDrop (route "ws") drops every websocket at once when set, then
	// refuses the next Times handshakes with 502 (0: accept reconnects).
	FaultWSDrop FaultKind = "ws_drop"
)

// Fault is one switchable failure. Latency adds to any kind.
type Fault struct {
	Kind    FaultKind     `json:"kind"`
	Latency time.Duration `json:"latency_ns,omitempty"`
	Status  int           `json:"status,omitempty"`
	Body    string        `json:"body,omitempty"`
	Hang    time.Duration `json:"hang_ns,omitempty"` // FaultTimeout: give up after this long (0: until client/server gone)
	// Times > 0 applies the fault to that many requests, then clears it
	// ("fail N times then succeed"); 0 applies it until cleared.
	Times int `json:"times,omitempty"`
}

// routed is a fault on one route, as the fault queue holds it; a route has
// one fault at most.
type routed struct {
	Route string `json:"route"`
	Fault
}

func normRoute(r string) string {
	r = strings.Trim(r, "/")
	if r == "" {
		return "*"
	}
	return r
}

func onRoute(route string) func(*routed) bool {
	return func(f *routed) bool { return f.Route == route }
}

// take returns the fault for route (exact first, then "*") and consumes one use.
func (s *Server) take(route string) (Fault, bool) {
	for _, k := range []string{route, "*"} {
		if f, ok := s.faults.Take(onRoute(k)); ok {
			return f.Fault, true
		}
	}
	return Fault{}, false
}

// SetFault switches a fault on for a REST route name ("PlaceOrder"), "ws"
// for the websocket handshake, or ""/"*" for every REST route. A zero Kind
// clears the route.
func (s *Server) SetFault(route string, f Fault) {
	route = normRoute(route)
	if f.Kind == "" {
		s.ClearFault(route)
		return
	}
	if f.Kind == FaultWSDrop {
		s.hub.dropAll()
		if f.Times == 0 {
			return // a one-shot drop; reconnects are accepted
		}
	}
	s.faults.Replace(onRoute(route), routed{Route: route, Fault: f}, f.Times)
}

// ClearFault removes the fault of one route.
func (s *Server) ClearFault(route string) { s.faults.Remove(onRoute(normRoute(route))) }

// ClearFaults removes every fault.
func (s *Server) ClearFaults() { s.faults.Clear() }

// Faults lists the active faults by route.
func (s *Server) Faults() map[string]Fault {
	out := map[string]Fault{}
	for _, f := range s.faults.Faults() {
		out[f.Route] = f.Fault
	}
	return out
}

// deliverFaulty sends an already computed reply body the broken way f asks.
func (s *Server) deliverFaulty(w http.ResponseWriter, r *http.Request, f Fault, body []byte) {
	switch f.Kind {
	case FaultTimeout:
		ctx := r.Context()
		if f.Hang > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, f.Hang)
			defer cancel()
		}
		select {
		case <-ctx.Done():
		case <-s.stop:
		}
		if r.Context().Err() == nil {
			s.hijackClose(w) // a gateway that gave up: connection closed, no reply
		}
	case FaultCloseConn:
		s.hijackClose(w)
	case FaultMalformed:
		bad := append([]byte{}, body[:len(body)/2]...)
		bad = append(bad, []byte(`,"stat":Ok"}{<html>`)...)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(bad)
	case FaultTruncated:
		conn, buf := s.hijack(w)
		if conn == nil {
			return
		}
		defer conn.Close()
		half := body[:len(body)/2]
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
			itoa(len(body)) + "\r\n\r\n")
		_, _ = buf.Write(half)
		_ = buf.Flush()
	}
}

func itoa(n int) string { return fmtInt(int64(n)) }

func (s *Server) hijack(w http.ResponseWriter) (interface{ Close() error }, *bufio.Writer) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil, nil
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return nil, nil
	}
	return conn, rw.Writer
}

func (s *Server) hijackClose(w http.ResponseWriter) {
	if conn, _ := s.hijack(w); conn != nil {
		_ = conn.Close()
	}
}
