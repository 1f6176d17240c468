package fake

import (
	"net/http"
	"strconv"
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

// control is the test API: POST /_fake/faults (a Fault or a list), DELETE
// /_fake/faults, GET /_fake/requests (bodies received), GET /_fake/scenarios.
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults" && r.Method == http.MethodPost:
		list, err := fakeupstream.DecodeFaults[Fault](r.Body)
		if err != nil {
			writeJSON(w, 400, map[string]string{"error": err.Error()})
			return
		}
		for _, f := range list {
			if f.Scenario != "" && !Known(f.Scenario) {
				writeJSON(w, 400, map[string]any{"error": "unknown scenario " + strconv.Quote(f.Scenario), "scenarios": Scenarios()})
				return
			}
		}
		for _, f := range list {
			s.Push(f)
		}
		writeJSON(w, 200, map[string]int{"faults": len(list)})
	case r.URL.Path == "/_fake/faults" && r.Method == http.MethodDelete:
		s.Clear()
		writeJSON(w, 200, map[string]int{"faults": 0})
	case r.URL.Path == "/_fake/requests" && r.Method == http.MethodGet:
		writeJSON(w, 200, s.Requests())
	case r.URL.Path == "/_fake/scenarios" && r.Method == http.MethodGet:
		writeJSON(w, 200, Scenarios())
	default:
		writeJSON(w, 404, map[string]string{"error": "unknown control route"})
	}
}
