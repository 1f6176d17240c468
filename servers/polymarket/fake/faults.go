package fake

// Faults: what Polymarket users report (source per kind below; throttling:
// docs.polymarket.com/api-reference/rate-limits).

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Fault kinds.
const (
	FaultLatency   = "latency"   // delay the answer by LatencyMs (past the client's timeout: Cloudflare throttling delays, docs.polymarket.com/api-reference/rate-limits)
	Fault429       = "429"       // 429 with Retry-After in seconds, or an HTTP-date with RetryAfterDate (Polymarket/ts-sdk .changeset/dev-659-retry-after-http-date.md)
	FaultCF403     = "cf403"     // Cloudflare's 403 "Attention Required!" HTML page (py-clob-client#91, #101, #143)
	Fault425       = "425"       // 425 {"error":"service not ready"} (py-clob-client#273)
	Fault500       = "500"       // 500 {"type":"internal error","error":"cannot get the information"} (wasabipesto/themis#21)
	FaultNull      = "null"      // 200 with a literal null body (rs-clob-client tests/data.rs)
	FaultMalformed = "malformed" // 200 with truncated, unparseable JSON (assumed)
	FaultReset     = "reset"     // the connection is reset before any answer (rs-clob-client-v2#77)
	FaultGhost     = "ghost"     // /book and /books answer a 0.01/0.99 book that disagrees with /price (py-clob-client#180)
	// FaultBusy200 is the Data API's rate-limit answer sent with status 200:
	// {"error":"Too Many Requests"} (seen by public clients of the Data API;
	// the body is that of its 429s).
	FaultBusy200 = "busy200"
)

// Fault is an injected failure.
type Fault struct {
	Kind           string `json:"kind"`
	Route          string `json:"route,omitempty"`     // a Route* name; "" = every route
	Count          int    `json:"count,omitempty"`     // requests affected; 0 = until cleared
	Skip           int    `json:"skip,omitempty"`      // matching requests let through first (a later page failing)
	LatencyMs      int    `json:"latencyMs,omitempty"` // for latency (and added before any other kind)
	RetryAfter     int    `json:"retryAfter,omitempty"`
	RetryAfterDate bool   `json:"retryAfterDate,omitempty"` // send Retry-After as an HTTP-date
}

// SetFault adds a fault; faults are checked in order and the first matching one applies.
func (s *Server) SetFault(f Fault) { s.faults.Add(f, f.Count) }

// ClearFaults removes every fault.
func (s *Server) ClearFaults() { s.faults.Clear() }

// take consumes one use of the first fault matching route (and, for ghost,
// only ghost faults; other kinds never match a ghost query).
func (s *Server) take(route string, ghost bool) *Fault {
	f, ok := s.faults.Take(func(f *Fault) bool {
		if (f.Route != "" && f.Route != route) || (f.Kind == FaultGhost) != ghost {
			return false
		}
		if f.Skip > 0 { // the queue holds the fault itself: the count-down persists
			f.Skip--
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	return &f
}

func (s *Server) ghost() bool {
	return s.take(RouteBook, true) != nil || s.take(RouteBooks, true) != nil
}

const cloudflarePage = `<!DOCTYPE html>
<html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head>
<body><h1>Sorry, you have been blocked</h1><p>You are unable to access polymarket.com</p>
<p>Cloudflare Ray ID: 8f0000000000abcd</p></body></html>`

// applyFault answers with the route's fault, if any.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, route string) bool {
	f := s.take(route, false)
	if f == nil {
		return false
	}
	if f.LatencyMs > 0 {
		select {
		case <-time.After(time.Duration(f.LatencyMs) * time.Millisecond):
		case <-r.Context().Done():
			return true
		}
	}
	switch f.Kind {
	case FaultLatency:
		return false // slow, then the real answer
	case Fault429:
		if f.RetryAfterDate {
			w.Header().Set("Retry-After", time.Now().Add(time.Duration(f.RetryAfter)*time.Second).UTC().Format(http.TimeFormat))
		} else {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		writeJSON(w, 429, map[string]string{"error": "Too Many Requests"}) // body assumed
	case FaultCF403:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(403)
		_, _ = io.WriteString(w, cloudflarePage)
	case Fault425:
		writeJSON(w, 425, map[string]string{"error": "service not ready"})
	case Fault500:
		writeJSON(w, 500, map[string]string{"type": "internal error", "error": "cannot get the information"})
	case FaultNull:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, "null")
	case FaultMalformed:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `[{"id":"2000000","question":"Will`)
	case FaultReset:
		fakeupstream.Reset(w)
	case FaultBusy200:
		writeJSON(w, 200, map[string]string{"error": "Too Many Requests"})
	default:
		writeJSON(w, 500, map[string]string{"error": "unknown fault kind " + f.Kind})
	}
	return true
}

// control is the test API: /_fake/faults (fakeupstream.ServeFaults), GET
// /_fake/stats (request counts per route).
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults":
		fakeupstream.ServeFaults(w, r, &s.faults, nil, s.SetFault)
	case r.URL.Path == "/_fake/sockets/drop" && r.Method == http.MethodPost:
		n := s.Sockets()
		s.DropSockets()
		writeJSON(w, 200, map[string]int{"dropped": n})
	case r.URL.Path == "/_fake/stats":
		out := map[string]int{}
		for k, c := range s.counts {
			out[k] = int(c.Load())
		}
		writeJSON(w, 200, out)
	default:
		writeJSON(w, 404, map[string]string{"error": "not found"})
	}
}
