package fake

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Fault makes the next Count answers (0 = until cleared) follow Scenario
// and/or wait LatencyMs first. Faults are used in order: the first one with
// uses left applies.
type Fault struct {
	Scenario  string `json:"scenario,omitempty"`
	Count     int    `json:"count,omitempty"`
	LatencyMs int    `json:"latencyMs,omitempty"`
	// RetryAfter / RetryAfterMs override the scenario's retry-after and
	// retry-after-ms headers ("-" removes the header).
	RetryAfter   string `json:"retryAfter,omitempty"`
	RetryAfterMs string `json:"retryAfterMs,omitempty"`
	// StreamMs spreads a streamed answer's events over this many
	// milliseconds (a slow real answer, scaled down).
	StreamMs int `json:"streamMs,omitempty"`
	// StallAfter holds a streamed answer open, sending nothing more, once
	// the first event of this type is sent (e.g.
	// "response.output_text.annotation.added": a model still writing when
	// the client's deadline comes; "response.in_progress": one that has
	// found nothing yet). assumed: a slow real answer looks like this to
	// the client, events stopping mid-stream with the connection open.
	StallAfter string `json:"stallAfter,omitempty"`
}

// Push adds a fault.
func (s *Server) Push(f Fault) { s.faults.Add(f, f.Count) }

// Clear removes every fault and the latency.
func (s *Server) Clear() { s.faults.Clear() }

// SetLatency delays every answer (a slow upstream; tests the 15 s deadline).
func (s *Server) SetLatency(d time.Duration) { s.faults.SetLatency(d) }

// nextFault consumes one use of the first fault.
func (s *Server) nextFault() (*Fault, time.Duration) {
	lat := s.faults.Latency()
	f, ok := s.faults.Take(nil)
	if !ok {
		return nil, lat
	}
	if f.LatencyMs > 0 {
		lat += time.Duration(f.LatencyMs) * time.Millisecond
	}
	return &f, lat
}

// control is the test API: /_fake/faults (fakeupstream.ServeFaults), GET
// /_fake/requests (bodies received), GET /_fake/scenarios.
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults":
		fakeupstream.ServeFaults(w, r, &s.faults, checkScenario, s.Push)
	case r.URL.Path == "/_fake/requests" && r.Method == http.MethodGet:
		writeJSON(w, 200, s.Requests())
	case r.URL.Path == "/_fake/scenarios" && r.Method == http.MethodGet:
		writeJSON(w, 200, Scenarios())
	default:
		writeJSON(w, 404, map[string]string{"error": "unknown control route"})
	}
}

// checkScenario refuses a fault naming a scenario the fake does not have.
func checkScenario(f Fault) error {
	if f.Scenario != "" && !Known(f.Scenario) {
		return fmt.Errorf("unknown scenario %q; known: %s", f.Scenario, strings.Join(Scenarios(), ", "))
	}
	return nil
}
