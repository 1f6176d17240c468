package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
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
func (s *Server) Push(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// Clear removes every fault and the latency.
func (s *Server) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults, s.latency = nil, 0
}

// SetLatency delays every answer (a slow upstream; ref §3.4 item 13).
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// nextFault consumes one use of the first fault; the caller holds s.mu.
func (s *Server) nextFault() (*Fault, time.Duration) {
	lat := s.latency
	if len(s.faults) == 0 {
		return nil, lat
	}
	f := s.faults[0]
	if f.Count > 0 {
		f.Count--
		if f.Count == 0 {
			s.faults = s.faults[1:]
		}
	}
	if f.LatencyMs > 0 {
		lat += time.Duration(f.LatencyMs) * time.Millisecond
	}
	c := *f
	return &c, lat
}

// control is the test API: POST /_fake/faults (a Fault or a list), DELETE
// /_fake/faults, GET /_fake/requests (bodies received), GET /_fake/scenarios.
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults" && r.Method == http.MethodPost:
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var list []Fault
		if json.Unmarshal(body, &list) != nil {
			var f Fault
			if err := json.Unmarshal(body, &f); err != nil {
				writeJSON(w, 400, map[string]string{"error": "want a fault object or a list of them: " + err.Error()})
				return
			}
			list = []Fault{f}
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
